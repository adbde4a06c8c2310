import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import {
  confirmEmailChange,
  emailChangeLinkStatus,
} from "~/features/accounts/profile/procedures.server";
import { FormErrors } from "~/ui/form-field";
import { redirectWithFlash } from "~/web/flash.server";
import { attemptProcedure, submitForm } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { LinkLine } from "~/ui/link-line";

/** The page carries a live token in its URL: never cached, never sent to another site as a referrer. */
const PRIVATE = { "Cache-Control": "no-store", "Referrer-Policy": "same-origin" };
export const headers = () => PRIVATE;

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
  return json({ token, ...status }, { headers: PRIVATE });
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
  const pending = useNavigation().state !== "idle";
  const errors = failed?.error
    ? Object.values(failed.error)
        .flat()
        .filter((line): line is string => typeof line === "string")
    : undefined;
  return (
    <section className="space-y-4" data-testid="confirm-email">
      <h2 className="text-lg font-semibold text-slate-900">Confirm your new email</h2>
      {valid ? (
        <>
          <p className="text-sm text-slate-600">
            Use <strong>{newEmail}</strong> to sign in from now on?
          </p>
          <FormErrors errors={errors ? [...new Set(errors)] : undefined} />
          <Form method="post">
            <input type="hidden" name="token" value={token} />
            <button
              type="submit"
              className="btn-primary"
              disabled={pending}
              data-testid="confirm-email-change"
            >
              {pending ? "Confirming..." : "Confirm"}
            </button>
          </Form>
        </>
      ) : (
        <div data-testid="email-link-invalid">
          <FormErrors errors={[message ?? ""]} />
        </div>
      )}
      <LinkLine to="/settings" className="text-sm">
        Back to your profile
      </LinkLine>
    </section>
  );
}
