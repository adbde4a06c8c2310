import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { changePassword, mySessions, revokeSession, signOutEverywhereElse } from "~/features/accounts/procedures/security.server";
import { SECURITY_PATH, SecurityTab } from "~/features/accounts/components/security-tab";
import { REVOKE_PARAM } from "~/features/accounts/session-types";
import { HttpError } from "~/infra/errors.server";
import { invoke } from "~/infra/procedure.server";
import { readSessionSecret } from "~/web/auth.server";
import { redirectWithFlash } from "~/web/flash.server";
import { readFormData } from "~/web/http.server";
import { loadProcedure, submitForm } from "~/web/remix-adapter.server";
import { callContext } from "~/web/request-context.server";
import { isCrossSiteMutation } from "~/web/same-origin.server";
import { requireWebUser } from "~/web/screen-guards.server";
import { endWebSession } from "~/web/web-session.server";

const PRIVATE = { "Cache-Control": "private, no-store" };

/** /settings/security: the password change, and the user's sessions and tokens (?revoke=<id> shows a confirmation). */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireWebUser(args.request);
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
  const user = await requireWebUser(request);
  const handedOver = { webSessionSecret: await readSessionSecret(request) };
  const formData = await readFormData(request);
  const intent = String(formData.get("intent") ?? "");

  if (intent === "change-password") {
    const outcome = await submitForm(changePassword, args, { formData, user, handedOver });
    if (!outcome.ok) return outcome.response;
    return redirectWithFlash(SECURITY_PATH, {
      kind: "success",
      title: "Password changed",
      description: "Every other browser and API token has been signed out.",
    });
  }

  if (intent !== "revoke" && intent !== "sign-out-others") return json({ revokeError: "Unknown action." }, { status: 400 });
  if (isCrossSiteMutation(request)) return json({ revokeError: "Cross-site request refused" }, { status: 403 });
  const ctx = callContext(request, args.context, handedOver);
  try {
    if (intent === "sign-out-others") {
      await invoke(signOutEverywhereElse, user, {}, ctx);
      return redirectWithFlash(SECURITY_PATH, {
        kind: "success",
        title: "Signed out everywhere else",
        description: "Every other browser is signed out and every API token has ended.",
      });
    }
    const { current } = await invoke(revokeSession, user, { id: formData.get("id") ?? "" }, ctx);
    if (current) {
      return redirectWithFlash(
        "/auth",
        { kind: "info", title: "Signed out", description: "You revoked this browser's session." },
        { "Set-Cookie": await endWebSession(request) },
      );
    }
    return redirectWithFlash(SECURITY_PATH, { kind: "success", title: "Revoked", description: "It is signed out from its next request." });
  } catch (error) {
    if (error instanceof HttpError) return json({ revokeError: error.message }, { status: error.status });
    throw error;
  }
}

export default function SettingsSecurity() {
  const { sessions, confirming } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const revokeError = answer && "revokeError" in answer ? answer.revokeError : null;
  const passwordResult = answer && !("revokeError" in answer) ? (answer as SubmissionResult<string[]>) : undefined;
  return <SecurityTab sessions={sessions} confirming={confirming} passwordResult={passwordResult} revokeError={revokeError} />;
}
