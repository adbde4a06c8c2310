import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { replyErrorLines } from "~/ui/form-field";
import { TokenConfirmation } from "~/ui/token-confirmation";
import { BrandCardPage } from "~/ui/brand-card-page";
import { BackToSignIn } from "~/features/accounts/components/auth-fields";
import { PRODUCT_NAME } from "~/lib/product";
import {
  confirmRegistration,
  registrationLinkStatus,
} from "~/features/accounts/sessions/procedures.server";
import { redirectWithFlash } from "~/web/flash.server";
import { attemptProcedure, submitForm } from "~/web/screen-action.server";
import { startWebSession } from "~/web/web-session.server";
import { TOKEN_PAGE_HEADERS } from "~/web/mailed-link.server";

export const meta: MetaFunction = () => [
  { title: `Create your account | ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

/** The page carries a live token in its URL: never cached, never sent to another site as a referrer (same-origin keeps the form's Origin). */
export const headers = () => TOKEN_PAGE_HEADERS;

/**
 * /confirm-registration?token=…: where the registration mail's link leads.
 * Opening it (a GET, which mail scanners also do) creates nothing; its
 * Create my account button does, and signs the new creator in.
 */
export async function loader(args: LoaderFunctionArgs) {
  const { request } = args;
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const outcome = await attemptProcedure(registrationLinkStatus, args, { token }, null);
  if (!outcome.ok && outcome.refusal.status !== 400) throw outcome.refusal.error;
  const status: {
    valid: boolean;
    email: string | null;
    firstName: string | null;
    message: string | null;
  } = outcome.ok
    ? outcome.result
    : { valid: false, email: null, firstName: null, message: outcome.refusal.message };
  return json({ token, ...status }, { headers: TOKEN_PAGE_HEADERS });
}

export async function action(args: ActionFunctionArgs) {
  const outcome = await submitForm(confirmRegistration, args, { user: null });
  if (!outcome.ok) return outcome.response;
  return redirectWithFlash(
    "/dashboard",
    { kind: "success", title: "Welcome!", description: "Your account has been created." },
    { "Set-Cookie": await startWebSession(outcome.result, args.request) },
  );
}

export default function ConfirmRegistration() {
  const { token, valid, email, firstName, message } = useLoaderData<typeof loader>();
  const failed = useActionData<typeof action>();
  return (
    <BrandCardPage title="Create your account">
      <TokenConfirmation
        valid={valid}
        token={token}
        message={message}
        invalidTestId="registration-link-invalid"
        errors={replyErrorLines(failed?.error)}
        formClassName="mt-6"
        buttonClassName="btn-primary w-full"
        buttonTestId="confirm-registration"
        label="Create my account"
        pendingLabel="Creating account..."
      >
        <p className="mt-2 text-sm text-slate-600">
          {firstName ? `${firstName}, your` : "Your"} account for <strong>{email}</strong> is one
          click away.
        </p>
      </TokenConfirmation>
      <BackToSignIn />
    </BrandCardPage>
  );
}
