import { useEffect, useRef, useState } from "react";
import { Form, Link, useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { FormErrors, TextField } from "~/ui/form-field";
import { UrlDialog } from "~/ui/url-dialog";
import { useHydrated } from "~/ui/use-hydrated";
import { useScreenForm } from "~/ui/forms/use-screen-form";
import { browserName } from "~/features/accounts/sessions/browser-name";
import {
  REVOKE_OTHERS,
  REVOKE_PARAM,
  type SessionView,
} from "~/features/accounts/sessions/session-types";
import { ConfirmActions } from "~/ui/confirm-actions";
import { PostForm, SubmitButton } from "~/ui/forms/post-form";

/**
 * The Security tab of /settings: the password change, and the user's web
 * sessions and API tokens with Revoke on each and "Sign out everywhere else".
 * Every control works without JavaScript: a Revoke is a link to
 * ?revoke=<id> whose page shows the confirmation (a plain panel whose form
 * posts); once hydrated it is a button opening the same confirmation as a
 * dialog.
 */

export const SECURITY_PATH = "/settings/security";

/** The form's schema, loaded after the page rendered. */
const loadSchema = () => import("~/features/accounts/schemas").then((m) => m.changePasswordSchema);

export function SecurityTab({
  sessions,
  confirming,
  passwordResult,
  revokeError,
}: {
  sessions: SessionView[];
  /** The ?revoke= of the page (the confirmation to show without JavaScript), when one is asked for. */
  confirming: string | null;
  /** The password form's answer when it was refused. */
  passwordResult?: SubmissionResult<string[]>;
  /** Why a Revoke was refused (say, it was ended meanwhile). */
  revokeError?: string | null;
}) {
  const [open, setOpen] = useState<string | null>(confirming);
  useEffect(() => setOpen(confirming), [confirming]);
  // A finished post (the page loaded again, or answered an error) closes a confirmation opened here.
  const navigation = useNavigation();
  const posted = useRef(false);
  useEffect(() => {
    if (navigation.state === "submitting") posted.current = true;
    else if (navigation.state === "idle" && posted.current) {
      posted.current = false;
      setOpen(confirming);
    }
  }, [navigation.state, confirming]);
  return (
    <div className="space-y-10" data-testid="security-tab">
      <PasswordChangeForm lastResult={passwordResult} />
      <SessionsList sessions={sessions} onOpen={setOpen} error={revokeError ?? null} />
      {open ? (
        <RevokeConfirmation sessions={sessions} target={open} onClose={() => setOpen(null)} />
      ) : null}
    </div>
  );
}

function PasswordChangeForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" && navigation.formData?.get("intent") === "change-password";
  const [form, fields] = useScreenForm({
    id: "change-password",
    loadSchema,
    lastResult,
  });
  return (
    <section aria-labelledby="password-heading">
      <h2 id="password-heading" className="text-lg font-semibold text-slate-900">
        Password
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Changing your password signs out every other browser and ends every API token; this browser
        stays signed in.
      </p>
      <PostForm
        form={form}
        action={SECURITY_PATH}
        hidden={{ intent: "change-password" }}
        className="mt-4 max-w-md space-y-4"
        testId="password-form"
      >
        <TextField
          field={fields.currentPassword}
          label="Current password"
          type="password"
          autoComplete="current-password"
        />
        <TextField
          field={fields.newPassword}
          label="New password"
          type="password"
          placeholder="Minimum 8 characters"
          autoComplete="new-password"
        />
        <SubmitButton pending={pending} pendingLabel="Saving..." label="Change password" />
      </PostForm>
    </section>
  );
}

const KIND_LABEL = { web: "Web session", token: "API token" } as const;

/** What a session or token is called on its row and in its confirmation: "Chrome on Linux (web session)". */
export function sessionLabel(session: SessionView): string {
  return `${browserName(session.userAgent)} (${KIND_LABEL[session.kind].toLowerCase()})`;
}

function SessionsList({
  sessions,
  onOpen,
  error,
}: {
  sessions: SessionView[];
  onOpen: (target: string) => void;
  error: string | null;
}) {
  const others = sessions.filter((session) => !session.current).length;
  return (
    <section aria-labelledby="sessions-heading">
      <h2 id="sessions-heading" className="text-lg font-semibold text-slate-900">
        Sessions and API tokens
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        Where you are signed in. Revoke one you do not recognize: it is signed out at its next
        request.
      </p>
      <div className="mt-4">
        <FormErrors errors={error ? [error] : undefined} />
      </div>
      <ul
        className="mt-4 divide-y divide-slate-200 rounded-lg border border-slate-200"
        data-testid="sessions-list"
      >
        {sessions.map((session) => (
          <li
            key={session.id}
            className="flex flex-wrap items-center justify-between gap-3 p-4"
            data-testid="session-row"
          >
            <div className="min-w-0">
              <p className="font-medium text-slate-900">
                {browserName(session.userAgent)}
                {session.current ? (
                  <span
                    className="ml-2 rounded-full bg-green-100 px-2 py-0.5 text-xs font-medium text-green-800"
                    data-testid="current-session"
                  >
                    {session.kind === "web" ? "This browser" : "This token"}
                  </span>
                ) : null}
              </p>
              <p className="text-sm text-slate-600">
                {KIND_LABEL[session.kind]} · created <DateTime iso={session.createdAt} /> · last
                used {session.lastUsedAt ? <DateTime iso={session.lastUsedAt} /> : "never"}
              </p>
            </div>
            <RevokeTrigger
              target={session.id}
              label={`Revoke ${sessionLabel(session)}`}
              onOpen={onOpen}
              className="btn-secondary"
            >
              Revoke
            </RevokeTrigger>
          </li>
        ))}
      </ul>
      {others > 0 ? (
        <div className="mt-4">
          <RevokeTrigger
            target={REVOKE_OTHERS}
            label="Sign out everywhere else"
            onOpen={onOpen}
            className="btn-secondary"
          >
            Sign out everywhere else
          </RevokeTrigger>
        </div>
      ) : null}
    </section>
  );
}

/** A control that opens a confirmation: a button once hydrated, else a link to ?revoke=<target>. */
function RevokeTrigger({
  target,
  label,
  className,
  onOpen,
  children,
}: {
  target: string;
  label: string;
  className: string;
  onOpen: (target: string) => void;
  children: string;
}) {
  const hydrated = useHydrated();
  const href = `${SECURITY_PATH}?${new URLSearchParams({ [REVOKE_PARAM]: target })}`;
  const name = label === children ? undefined : label;
  return hydrated ? (
    <button type="button" className={className} aria-label={name} onClick={() => onOpen(target)}>
      {children}
    </button>
  ) : (
    <Link to={href} preventScrollReset className={className} aria-label={name}>
      {children}
    </Link>
  );
}

/** "Revoke …?" or "Sign out everywhere else?": the form posts the intent; Cancel closes. */
function RevokeConfirmation({
  sessions,
  target,
  onClose,
}: {
  sessions: SessionView[];
  target: string;
  onClose: () => void;
}) {
  const navigation = useNavigation();
  const pending = navigation.state === "submitting";
  const everywhereElse = target === REVOKE_OTHERS;
  const session = sessions.find((entry) => entry.id === target);
  if (!everywhereElse && !session) return null;
  const title = everywhereElse ? "Sign out everywhere else?" : `Revoke ${sessionLabel(session!)}?`;
  const consequence = everywhereElse
    ? "Every other browser is signed out and every API token stops working. This browser stays signed in."
    : session!.current
      ? session!.kind === "web"
        ? "This is the browser you are using: you will be signed out here."
        : "This is the token making this call: it stops working."
      : session!.kind === "web"
        ? "That browser is signed out at its next request."
        : "Calls with that token are refused from the next one.";
  return (
    <UrlDialog
      title={title}
      titleId="revoke-confirmation-title"
      testId="revoke-confirmation"
      closeHref={SECURITY_PATH}
      onClose={onClose}
    >
      {(cancel) => (
        <Form method="post" action={SECURITY_PATH} preventScrollReset className="mt-4">
          <input
            type="hidden"
            name="intent"
            value={everywhereElse ? "sign-out-others" : "revoke"}
          />
          {everywhereElse ? null : <input type="hidden" name="id" value={target} />}
          <p className="text-sm text-slate-700">{consequence}</p>
          <ConfirmActions
            cancel={cancel}
            pending={pending}
            pendingLabel="Working..."
            label={everywhereElse ? "Sign out everywhere else" : "Revoke"}
          />
        </Form>
      )}
    </UrlDialog>
  );
}

/**
 * A date and time: en-US in UTC on the server and the first client render (so
 * hydration matches), then the reader's own locale and time zone.
 */
function DateTime({ iso }: { iso: string }) {
  const date = new Date(iso);
  const [text, setText] = useState(
    () =>
      `${date.toLocaleString("en-US", { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" })} UTC`,
  );
  useEffect(() => {
    setText(new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" }));
  }, [iso]);
  return <time dateTime={iso}>{text}</time>;
}
