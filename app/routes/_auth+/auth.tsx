import type {
  ActionFunctionArgs,
  HeadersFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { getFormProps } from "@conform-to/react";
import type { FormMetadata } from "@conform-to/react";
import { useEffect } from "react";
import type { ReactNode } from "react";
import { EmailField, FormErrors, TextField } from "~/ui/form-field";
import { SubmitButton } from "~/ui/forms/post-form";
import { useIntentPending } from "~/ui/forms/use-intent-pending";
import { NameFields, NewPasswordField } from "~/features/accounts/components/auth-fields";
import { LinkTabs } from "~/ui/link-tabs";
import { LogoMark } from "~/ui/logo";
import { useScreenForm } from "~/ui/forms/use-screen-form";
import type { SchemaLoader } from "~/ui/forms/use-deferred-validation";
import type { z } from "zod";
import { useToast } from "~/ui/toaster";
import { useHydrated } from "~/ui/use-hydrated";
import { PRODUCT_NAME, TAGLINE } from "~/lib/product";
import { safeRedirect } from "~/lib/safe-redirect";
import { landingAfterSignIn } from "~/lib/accounts";
import {
  invitationStatus,
  joinWaitlist,
  registerInvited,
} from "~/features/accounts/registration/waitlist.procedures.server";
import { register, signInOptions } from "~/features/accounts/sessions/procedures.server";
import { WAITLIST_JOINED } from "~/features/accounts/registration/waitlist-copy";
import { webAuthenticator } from "~/web/authenticator.server";
import { redirectWithFlash } from "~/web/flash.server";
import { attemptProcedure, intent, loadProcedure, screenAction } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { startWebSession } from "~/web/web-session.server";
import { readFormData } from "~/web/http.server";
import { LinkLine } from "~/ui/link-line";
import { TOKEN_PAGE_HEADERS } from "~/web/mailed-link.server";

/** The forms' schemas, loaded after the page rendered. */
const loadLoginSchema = () => import("~/features/accounts/schemas").then((m) => m.loginSchema);
const loadRegisterSchema = () =>
  import("~/features/accounts/schemas").then((m) => m.registerSchema);
const loadWaitlistSchema = () =>
  import("~/features/accounts/schemas").then((m) => m.waitlistJoinSchema);
const loadInvitedSchema = () =>
  import("~/features/accounts/schemas").then((m) => m.invitedRegisterSchema);

/** An invitation's page carries a live token in its URL: never cached, never sent to another site as a referrer. */
export const headers: HeadersFunction = ({ loaderHeaders }) => {
  const result = new Headers();
  for (const name of Object.keys(TOKEN_PAGE_HEADERS)) {
    const value = loaderHeaders.get(name);
    if (value) result.set(name, value);
  }
  return result;
};

/** What ?waitlist= says after the waitlist form (one answer: it must not tell whether the address was on the list). */
const WAITLIST_OUTCOMES = ["joined"] as const;
type WaitlistOutcome = (typeof WAITLIST_OUTCOMES)[number];

export const meta: MetaFunction = () => [
  { title: `Sign in | ${PRODUCT_NAME}` },
  {
    name: "description",
    content: `Sign in to ${PRODUCT_NAME} to style your selfies and sell them on the marketplace.`,
  },
];

export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const redirectTo = safeRedirect(url.searchParams.get("redirectTo"), "/dashboard");
  const signedIn = await requireScreenUser(args.request, { access: "optional" });
  if (signedIn) throw redirect(landingAfterSignIn(signedIn, redirectTo));
  const { registrationOpen } = await loadProcedure(signInOptions, args, {}, null);
  const invite = url.searchParams.get("invite");
  const invitation =
    invite === null
      ? null
      : { token: invite.slice(0, 500), ...(await checkInvitation(invite.slice(0, 500), args)) };
  const waitlistParam = url.searchParams.get("waitlist");
  const waitlist = WAITLIST_OUTCOMES.find((outcome) => outcome === waitlistParam) ?? null;
  return json(
    {
      tab:
        url.searchParams.get("tab") === "register" || invitation
          ? ("register" as const)
          : ("login" as const),
      redirectTo,
      registrationOpen,
      invitation,
      waitlist,
    },
    { headers: invitation ? TOKEN_PAGE_HEADERS : {} },
  );
}

/** An invitation link's state; a link that is not (or no longer) valid says why. */
async function checkInvitation(token: string, args: LoaderFunctionArgs) {
  const outcome = await attemptProcedure(invitationStatus, args, { invite: token }, null);
  if (outcome.ok) return outcome.result;
  if (outcome.refusal.status !== 400) throw outcome.refusal.error;
  return { valid: false as const, email: null, message: outcome.refusal.message };
}

export async function action(args: ActionFunctionArgs) {
  const form = await readFormData(args.request);
  const redirectTo = safeRedirect(form.get("redirectTo"), "/dashboard");
  const welcome = (
    user: Parameters<typeof startWebSession>[0],
    title: string,
    description: string,
    to: string,
  ) =>
    startWebSession(user, args.request).then((cookie) =>
      redirectWithFlash(to, { kind: "success", title, description }, { "Set-Cookie": cookie }),
    );
  return screenAction(args, {
    user: null,
    form,
    // No intent: the sign-in form.
    unknownIntent: async () => {
      const outcome = await webAuthenticator(args).authenticate("form", args.request);
      if (!outcome.ok) return outcome.response;
      return welcome(
        outcome.result,
        "Welcome back!",
        "You've been logged in successfully.",
        landingAfterSignIn(outcome.result, redirectTo),
      );
    },
    intents: {
      waitlist: intent({
        procedure: joinWaitlist,
        reply: "form",
        onSuccess: () => {
          const answer: WaitlistOutcome = "joined";
          return redirect(`/auth?tab=register&waitlist=${answer}#waitlist`);
        },
      }),
      "register-invited": intent({
        procedure: registerInvited,
        reply: "form",
        onSuccess: ({ result }) =>
          welcome(result, "Welcome!", "Your account has been created.", "/dashboard"),
      }),
      register: intent({
        procedure: register,
        reply: async (refusal, asForm) => {
          if (
            refusal.status === 403 &&
            !(await loadProcedure(signInOptions, args, {}, null)).registrationOpen
          ) {
            return redirectWithFlash(`/auth?redirectTo=${encodeURIComponent(redirectTo)}`, {
              kind: "error",
              title: "Registration",
              description: "Please use the login form with existing credentials.",
            });
          }
          return asForm();
        },
        // The same notice whether or not the email has an account: the mail says what comes next.
        onSuccess: ({ result }) =>
          redirectWithFlash("/auth", {
            kind: "info",
            title: "Check your email",
            description: result.message,
          }),
      }),
    },
  });
}

export default function AuthScreen() {
  const { tab, redirectTo, registrationOpen, invitation, waitlist } =
    useLoaderData<typeof loader>();
  const tabHref = (name: string) =>
    `?tab=${name}${redirectTo !== "/dashboard" ? `&redirectTo=${encodeURIComponent(redirectTo)}` : ""}`;
  const tabClass = (selected: boolean) =>
    `flex-1 rounded-md px-3 py-2 text-center text-sm font-medium ${
      selected ? "bg-white text-slate-900 shadow" : "text-slate-600 hover:text-slate-900"
    }`;

  return (
    <div className="mx-auto grid max-w-6xl gap-10 px-4 py-10 lg:grid-cols-2 lg:py-16">
      <section className="flex flex-col justify-center">
        <div className="mb-6 flex items-center gap-3">
          <LogoMark className="h-10 w-10" />
          <h1 className="text-3xl font-bold text-slate-900">{PRODUCT_NAME}</h1>
        </div>
        <p className="mb-6 text-slate-600">{TAGLINE}</p>
        <LinkTabs
          idPrefix="auth"
          selected={tab}
          tabs={[
            { id: "login", label: "Login", to: tabHref("login") },
            { id: "register", label: "Register", to: tabHref("register") },
          ]}
          className="card p-6"
          listClassName="mb-6 flex gap-1 rounded-lg bg-slate-100 p-1"
          tabClassName={tabClass}
        >
          {tab === "register" ? (
            invitation?.valid ? (
              <InvitedRegisterCard token={invitation.token} email={invitation.email} />
            ) : registrationOpen ? (
              <RegisterCard redirectTo={redirectTo} />
            ) : (
              <WaitlistCard outcome={waitlist} invitationProblem={invitation?.message ?? null} />
            )
          ) : (
            <LoginCard redirectTo={redirectTo} />
          )}
        </LinkTabs>
        <p className="mt-4 text-sm text-slate-600">
          How we handle your photos and data:{" "}
          <Link to="/privacy" className="font-medium text-brand-700 hover:underline">
            Privacy
          </Link>
        </p>
      </section>
      <aside className="hidden flex-col justify-center rounded-3xl bg-gradient-to-br from-brand-600 to-pink-600 p-10 text-white lg:flex">
        <h2 className="text-3xl font-bold">Transform &amp; Monetize</h2>
        <ul className="mt-8 space-y-6">
          <SidePoint title="Upload selfies" text="Start with any selfie: JPG or PNG up to 10MB." />
          <SidePoint
            title="AI-powered transformations"
            text="Professional, cartoon, anime and fantasy styles in one click."
          />
          <SidePoint
            title="Earn from your creations"
            text="Sell and license your art on the marketplace and beyond."
          />
        </ul>
      </aside>
    </div>
  );
}

function SidePoint({ title, text }: { title: string; text: string }) {
  return (
    <li className="flex gap-4">
      <span className="mt-1 inline-flex h-6 w-6 shrink-0 items-center justify-center rounded-full bg-white/20">
        ✓
      </span>
      <div>
        <p className="font-semibold">{title}</p>
        <p className="text-white/80">{text}</p>
      </div>
    </li>
  );
}

/** A tab's heading and the line under it. */
function CardIntro({
  title,
  testId,
  children,
}: {
  title: string;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <>
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      <p className="mt-1 text-sm text-slate-600" data-testid={testId}>
        {children}
      </p>
    </>
  );
}

function useIntentResult(intent: string) {
  const actionData = useActionData<typeof action>();
  if (!actionData || typeof actionData !== "object" || !("status" in actionData)) return undefined;
  return actionData.initialValue?.intent === intent ? actionData : undefined;
}

/** The form of one intent: its own answer from the action, whether it is being sent, and conform's wiring. */
function useIntentForm<Schema extends z.ZodType>({
  intent,
  id = intent,
  loadSchema,
}: {
  intent: string;
  /** The form's id; the intent when not given. */
  id?: string;
  loadSchema: SchemaLoader<Schema>;
}) {
  const lastResult = useIntentResult(intent);
  const pending = useIntentPending(intent);
  const [form, fields] = useScreenForm({ id, loadSchema, lastResult });
  return { intent, lastResult, pending, form, fields };
}

/**
 * A card's form (useIntentForm's `card`): posted with its intent, then the
 * `hidden` inputs, the children, and the wide submit button saying
 * `button.pendingLabel` while it is sent. Without `action` it posts to this
 * page as it is addressed.
 */
function IntentForm<Schema extends Record<string, unknown>>({
  card,
  action,
  hidden = {},
  className = "mt-6 space-y-4",
  button,
  children,
}: {
  card: { intent: string; pending: boolean; form: FormMetadata<Schema, string[]> };
  action?: string;
  hidden?: Record<string, string>;
  className?: string;
  button: { label: string; pendingLabel: string };
  children: ReactNode;
}) {
  return (
    <Form method="post" action={action} {...getFormProps(card.form)} className={className}>
      <input type="hidden" name="intent" value={card.intent} />
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children}
      <SubmitButton pending={card.pending} {...button} wide />
    </Form>
  );
}

function LoginCard({ redirectTo }: { redirectTo: string }) {
  const toast = useToast();
  const hydrated = useHydrated();
  const card = useIntentForm({ intent: "login", loadSchema: loadLoginSchema });
  const { lastResult, form, fields } = card;
  useEffect(() => {
    if (lastResult?.error?.[""]?.length) {
      toast({
        kind: "error",
        title: "Login failed",
        description: lastResult.error[""][0] ?? "Invalid email or password",
      });
    }
  }, [lastResult, toast]);

  return (
    <div>
      <CardIntro title="Welcome back">Enter your credentials to access your account</CardIntro>
      <IntentForm
        card={card}
        hidden={{ redirectTo }}
        button={{ label: "Login", pendingLabel: "Logging in..." }}
      >
        {/* One summary of a refused sign-in: the toast with JavaScript, this box without. */}
        {hydrated ? null : <FormErrors errors={form.errors} id={form.errorId} />}
        <EmailField field={fields.email} />
        <TextField
          field={fields.password}
          label="Password"
          type="password"
          autoComplete="current-password"
        />
      </IntentForm>
      <LinkLine to="/forgot-password" className="mt-4 text-center text-sm">
        Forgot password?
      </LinkLine>
    </div>
  );
}

/** The submit button of both ways to register. */
const CREATE_ACCOUNT = { label: "Create Account", pendingLabel: "Creating account..." };

/** The Register tab while registration is open (closed: WaitlistCard). */
function RegisterCard({ redirectTo }: { redirectTo: string }) {
  const card = useIntentForm({ intent: "register", loadSchema: loadRegisterSchema });
  const { form, fields } = card;

  return (
    <div>
      <CardIntro title="Create account">
        Join the beta and start earning from your selfies.
      </CardIntro>
      <IntentForm card={card} hidden={{ redirectTo }} button={CREATE_ACCOUNT}>
        <FormErrors errors={form.errors} id={form.errorId} />
        <NameFields firstName={fields.firstName} lastName={fields.lastName} />
        <TextField field={fields.email} label="Email" type="email" autoComplete="email" />
        <NewPasswordField field={fields.password} />
      </IntentForm>
    </div>
  );
}

/**
 * The Register tab while registration is closed: the notice, and the waitlist's
 * one field. Joining (or finding the address on the list already) comes back
 * here with the answer in the address (?waitlist=), so it shows without JavaScript.
 */
function WaitlistCard({
  outcome,
  invitationProblem,
}: {
  outcome: WaitlistOutcome | null;
  invitationProblem: string | null;
}) {
  // Not "waitlist": that id is the section's, the anchor the sign-up buttons lead to (an input's form= would find the section).
  const card = useIntentForm({
    intent: "waitlist",
    id: "waitlist-form",
    loadSchema: loadWaitlistSchema,
  });
  const { form, fields } = card;
  return (
    <div>
      <CardIntro title="Create account" testId="registration-closed">
        Registration is closed during the beta. Please use the login form with existing credentials.
      </CardIntro>
      {invitationProblem ? (
        <p
          role="alert"
          className="mt-4 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="invitation-invalid"
        >
          {invitationProblem}
        </p>
      ) : null}
      <section
        id="waitlist"
        aria-labelledby="waitlist-heading"
        className="mt-6 scroll-mt-24 rounded-xl border border-brand-100 bg-brand-50/60 p-4"
      >
        <h3 id="waitlist-heading" className="font-semibold text-slate-900">
          Join the waitlist
        </h3>
        <p className="mt-1 text-sm text-slate-600">
          Leave your email and we&apos;ll send you an invitation to create your account when a beta
          spot opens.
        </p>
        {outcome ? (
          <p
            role="status"
            className="mt-3 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
            data-testid="waitlist-outcome"
          >
            {WAITLIST_JOINED}
          </p>
        ) : null}
        <IntentForm
          card={card}
          action="/auth?tab=register"
          className="mt-4 space-y-4"
          button={{ label: "Join the waitlist", pendingLabel: "Joining..." }}
        >
          <FormErrors errors={form.errors} id={form.errorId} />
          <EmailField field={fields.email} />
        </IntentForm>
      </section>
    </div>
  );
}

/** The Register tab opened by an invitation's link: the invited address is fixed; names and a password create the account. */
function InvitedRegisterCard({ token, email }: { token: string; email: string }) {
  const card = useIntentForm({ intent: "register-invited", loadSchema: loadInvitedSchema });
  const { form, fields } = card;
  return (
    <div data-testid="invited-register">
      <CardIntro title="Create account">
        You&apos;re invited to the beta. This invitation creates the account for{" "}
        <strong className="wrap-anywhere">{email}</strong>.
      </CardIntro>
      <IntentForm
        card={card}
        action={`/auth?tab=register&invite=${encodeURIComponent(token)}`}
        hidden={{ invite: token }}
        button={CREATE_ACCOUNT}
      >
        <FormErrors
          errors={[...(form.errors ?? []), ...(fields.invite.errors ?? [])]}
          id={form.errorId}
        />
        <NameFields firstName={fields.firstName} lastName={fields.lastName} />
        <NewPasswordField field={fields.password} />
      </IntentForm>
    </div>
  );
}
