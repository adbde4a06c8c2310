import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import {
  confirmEmailChange,
  emailChangeLinkStatus,
} from "~/features/accounts/profile/procedures.server";
import { replyErrorLines } from "~/ui/form-field";
import { TokenConfirmation } from "~/ui/token-confirmation";
import { redirectWithFlash } from "~/web/flash.server";
import { attemptProcedure, submitForm } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { LinkLine } from "~/ui/link-line";
import { TOKEN_PAGE_HEADERS } from "~/web/mailed-link.server";

export const headers = () => TOKEN_PAGE_HEADERS;

/**
 * /settings/confirm-email?token=…: where the email change mail's link leads,
 * for the signed-in owner (others sign in first and come back). Opening it (a
 * GET, which mail scanners also do) changes nothing; its Confirm button does.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { request } = args;
  const user = await requireScreenUser(request, { access: "user" });
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const outcome = await attemptProcedure(emailChangeLinkStatus, args, { token }, user);
  if (!outcome.ok && outcome.refusal.status !== 400) throw outcome.refusal.error;
  const status: { valid: boolean; newEmail: string | null; message: string | null } = outcome.ok
    ? outcome.result
    : { valid: false, newEmail: null, message: outcome.refusal.message };
  return json({ token, ...status }, { headers: TOKEN_PAGE_HEADERS });
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const outcome = await submitForm(confirmEmailChange, args, { user });
  if (!outcome.ok) return outcome.response;
  return redirectWithFlash("/settings", {
    kind: "success",
    title: "Email changed",
    description: `You now sign in with ${outcome.result.email}.`,
  });
}

export default function ConfirmEmailChange() {
  const { token, valid, newEmail, message } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <section className="space-y-4" data-testid="confirm-email">
      <h2 className="text-lg font-semibold text-slate-900">Confirm your new email</h2>
      <TokenConfirmation
        valid={valid}
        token={token}
        message={message}
        invalidTestId="email-link-invalid"
        errors={[...new Set(replyErrorLines(failed?.error))]}
        buttonClassName="btn-primary"
        buttonTestId="confirm-email-change"
        label="Confirm"
        pendingLabel="Confirming..."
      >
        <p className="text-sm text-slate-600">
          Use <strong>{newEmail}</strong> to sign in from now on?
        </p>
      </TokenConfirmation>
      <LinkLine to="/settings" className="text-sm">
        Back to your profile
      </LinkLine>
    </section>
  );
}
