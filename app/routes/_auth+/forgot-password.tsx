import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getFormProps } from "@conform-to/react";
import { BrandCardPage } from "~/ui/brand-card-page";
import { EmailField, FormErrors } from "~/ui/form-field";
import { SubmitButton } from "~/ui/forms/post-form";
import { BackToSignIn } from "~/features/accounts/components/auth-fields";
import { useScreenForm } from "~/ui/forms/use-screen-form";
import { PRODUCT_NAME } from "~/lib/product";
import {
  RESET_REQUESTED,
  requestPasswordReset,
} from "~/features/accounts/passwords/procedures.server";
import { submitForm } from "~/web/screen-action.server";

/** The form's schema, loaded after the page rendered. */
const loadSchema = () => import("~/features/accounts/schemas").then((m) => m.forgotPasswordSchema);

export const meta: MetaFunction = () => [{ title: `Forgot password | ${PRODUCT_NAME}` }];

export function loader({ request }: LoaderFunctionArgs) {
  const sent = new URL(request.url).searchParams.get("sent") === "1";
  return json({ sent, message: sent ? RESET_REQUESTED : null });
}

/** Every accepted request ends on the same confirmation, whatever the email. */
export async function action(args: ActionFunctionArgs) {
  const outcome = await submitForm(requestPasswordReset, args, { user: null });
  if (!outcome.ok) return outcome.response;
  return redirect("/forgot-password?sent=1");
}

export default function ForgotPassword() {
  const { sent, message } = useLoaderData<typeof loader>();
  return (
    <BrandCardPage title="Forgot password?">
      {sent ? <Sent message={message ?? ""} /> : <RequestForm />}
    </BrandCardPage>
  );
}

function Sent({ message }: { message: string }) {
  return (
    <div data-testid="reset-requested">
      <p
        role="status"
        className="mt-4 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
      >
        {message}
      </p>
      <p className="mt-4 text-sm text-slate-600">
        No email? Check your spam folder, or{" "}
        <Link to="/forgot-password" className="font-medium text-brand-700 hover:underline">
          ask again
        </Link>
        .
      </p>
      <BackToSignIn />
    </div>
  );
}

function RequestForm() {
  const lastResult = useActionData<typeof action>();
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formAction === "/forgot-password";
  const [form, fields] = useScreenForm({
    id: "forgot-password",
    loadSchema,
    lastResult,
  });

  return (
    <>
      <p className="mt-1 text-sm text-slate-600">
        Enter the email you sign in with and we will send you a link to choose a new password.
      </p>
      <Form
        method="post"
        action="/forgot-password"
        {...getFormProps(form)}
        className="mt-6 space-y-4"
      >
        <FormErrors errors={form.errors} id={form.errorId} />
        <EmailField field={fields.email} />
        <SubmitButton pending={pending} pendingLabel="Sending..." label="Send reset link" wide />
      </Form>
      <BackToSignIn />
    </>
  );
}
