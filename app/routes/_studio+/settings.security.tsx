import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import {
  changePassword,
  mySessions,
  revokeSession,
  signOutEverywhereElse,
} from "~/features/accounts/sessions/security.procedures.server";
import { SECURITY_PATH, SecurityTab } from "~/features/accounts/sessions/components/security-tab";
import { REVOKE_PARAM } from "~/features/accounts/sessions/session-types";
import { readSessionSecret } from "~/web/auth.server";
import { redirectWithFlash } from "~/web/flash.server";
import type { Refusal } from "~/web/screen-action.server";
import { intent, loadProcedure, screenAction } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { endWebSession } from "~/web/web-session.server";

const PRIVATE = { "Cache-Control": "private, no-store" };

/** /settings/security: the password change, and the user's sessions and tokens (?revoke=<id> shows a confirmation). */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const webSessionSecret = await readSessionSecret(args.request);
  const sessions = await loadProcedure(mySessions, args, {}, user, { webSessionSecret });
  const confirming = new URL(args.request.url).searchParams.get(REVOKE_PARAM);
  return json({ sessions, confirming }, { headers: PRIVATE });
}

/**
 * intent=change-password (currentPassword, newPassword), intent=revoke (id),
 * intent=sign-out-others. Each redirects back with a flash message; revoking
 * this browser's own session signs out and goes to sign-in.
 */
export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const user = await requireScreenUser(request, { access: "user" });
  const handedOver = { webSessionSecret: await readSessionSecret(request) };
  // A refused revoke shows its message above the sessions list.
  const revokeRefused = (refusal: Refusal) =>
    json({ revokeError: refusal.message }, { status: refusal.status });
  return screenAction<SubmissionResult<string[]> | { revokeError: string }>(args, {
    user,
    handedOver,
    unknownIntent: () => json({ revokeError: "Unknown action." }, { status: 400 }),
    intents: {
      "change-password": intent({
        procedure: changePassword,
        reply: "form",
        onSuccess: () =>
          redirectWithFlash(SECURITY_PATH, {
            kind: "success",
            title: "Password changed",
            description: "Every other browser and API token has been signed out.",
          }),
      }),
      "sign-out-others": intent({
        procedure: signOutEverywhereElse,
        rawInput: () => ({}),
        reply: revokeRefused,
        onSuccess: () =>
          redirectWithFlash(SECURITY_PATH, {
            kind: "success",
            title: "Signed out everywhere else",
            description: "Every other browser is signed out and every API token has ended.",
          }),
      }),
      revoke: intent({
        procedure: revokeSession,
        rawInput: (form) => ({ id: form.get("id") ?? "" }),
        reply: revokeRefused,
        onSuccess: async ({ result }) =>
          result.current
            ? redirectWithFlash(
                "/auth",
                {
                  kind: "info",
                  title: "Signed out",
                  description: "You revoked this browser's session.",
                },
                { "Set-Cookie": await endWebSession(request) },
              )
            : redirectWithFlash(SECURITY_PATH, {
                kind: "success",
                title: "Revoked",
                description: "It is signed out from its next request.",
              }),
      }),
    },
  });
}

export default function SettingsSecurity() {
  const { sessions, confirming } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const revokeError = answer && "revokeError" in answer ? answer.revokeError : null;
  const passwordResult =
    answer && !("revokeError" in answer) ? (answer as SubmissionResult<string[]>) : undefined;
  return (
    <SecurityTab
      sessions={sessions}
      confirming={confirming}
      passwordResult={passwordResult}
      revokeError={revokeError}
    />
  );
}
