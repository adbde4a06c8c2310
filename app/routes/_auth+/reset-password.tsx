import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getFormProps } from "@conform-to/react";
import { BrandCardPage } from "~/ui/brand-card-page";
import { FormErrors } from "~/ui/form-field";
import { SubmitButton } from "~/ui/forms/post-form";
import { NewPasswordField } from "~/features/accounts/components/auth-fields";
import { useScreenForm } from "~/ui/forms/use-screen-form";
import { PRODUCT_NAME } from "~/lib/product";
import { resetLinkStatus, resetPassword } from "~/features/accounts/passwords/procedures.server";
import { redirectWithFlash } from "~/web/flash.server";
import { attemptProcedure, submitForm } from "~/web/screen-action.server";
import { TOKEN_PAGE_HEADERS } from "~/web/mailed-link.server";

/** The form's schema, loaded after the page rendered. */
const loadSchema = () => import("~/features/accounts/schemas").then((m) => m.resetPasswordSchema);

export const meta: MetaFunction = () => [{ title: `Choose a new password | ${PRODUCT_NAME}` }];

/**
 * The page carries a live token in its URL: never cached, and never sent to
 * another site as a referrer. `same-origin` rather than `no-referrer`: with
 * no-referrer a browser posts the form with `Origin: null`, which the
 * same-origin check refuses.
 */
export const headers = () => TOKEN_PAGE_HEADERS;

export async function loader(args: LoaderFunctionArgs) {
  const { request } = args;
  const token = new URL(request.url).searchParams.get("token") ?? "";
  const outcome = await attemptProcedure(resetLinkStatus, args, { token }, null);
  if (!outcome.ok && outcome.refusal.status !== 400) throw outcome.refusal.error;
  const status: { valid: boolean; message: string | null } = outcome.ok
    ? outcome.result
    : { valid: false, message: outcome.refusal.message };
  return json({ token, ...status }, { headers: TOKEN_PAGE_HEADERS });
}

export async function action(args: ActionFunctionArgs) {
  const outcome = await submitForm(resetPassword, args, { user: null });
  if (!outcome.ok) return outcome.response;
  return redirectWithFlash("/auth", {
    kind: "success",
    title: "Password changed",
    description: "Password changed. Sign in with your new password.",
  });
}

export default function ResetPassword() {
  const { token, valid, message } = useLoaderData<typeof loader>();
  return (
    <BrandCardPage title="Choose a new password">
      {valid ? <NewPasswordForm token={token} /> : <BadLink message={message ?? ""} />}
    </BrandCardPage>
  );
}

function AskAgain() {
  return (
    <p className="mt-6 text-sm">
      <Link to="/forgot-password" className="font-medium text-brand-700 hover:underline">
        Ask for a new link
      </Link>
      <span className="text-slate-400"> · </span>
      <Link to="/auth" className="font-medium text-brand-700 hover:underline">
        Back to sign in
      </Link>
    </p>
  );
}

function BadLink({ message }: { message: string }) {
  return (
    <div data-testid="reset-link-invalid">
      <FormErrors errors={[message]} />
      <AskAgain />
    </div>
  );
}

function NewPasswordForm({ token }: { token: string }) {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formMethod?.toLowerCase() === "post";
  const [form, fields] = useScreenForm({
    id: "reset-password",
    loadSchema,
    lastResult,
  });
  // A token refused when the form was sent (used meanwhile, or expired) is the form's error.
  const tokenErrors = fields.token.errors ?? [];
  const errors = [
    ...(form.errors ?? []),
    ...tokenErrors.filter((error) => !form.errors?.includes(error)),
  ];

  return (
    <>
      <p className="mt-1 text-sm text-slate-600">
        Enter a new password for your account (at least 8 characters, not a common one).
      </p>
      <Form method="post" {...getFormProps(form)} className="mt-6 space-y-4">
        <input type="hidden" name="token" value={token} />
        <FormErrors errors={errors} id={form.errorId} />
        <NewPasswordField field={fields.password} label="New password" />
        <SubmitButton pending={pending} pendingLabel="Saving..." label="Set new password" wide />
      </Form>
      {errors.length > 0 ? <AskAgain /> : null}
    </>
  );
}
