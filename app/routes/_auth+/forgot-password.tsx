import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { getFormProps } from "@conform-to/react";
import { FormErrors, TextField } from "~/ui/form-field";
import { LogoMark } from "~/ui/logo";
import { useScreenForm } from "~/ui/forms/use-screen-form";
import { PRODUCT_NAME } from "~/lib/product";
import {
  RESET_REQUESTED,
  requestPasswordReset,
} from "~/features/accounts/procedures/password-reset.server";
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
    <div className="mx-auto max-w-md px-4 py-10 lg:py-16">
      <div className="mb-6 flex items-center gap-3">
        <LogoMark className="h-10 w-10" />
        <p className="text-3xl font-bold text-slate-900">{PRODUCT_NAME}</p>
      </div>
      <section className="card p-6">
        <h1 className="text-xl font-semibold text-slate-900">Forgot password?</h1>
        {sent ? <Sent message={message ?? ""} /> : <RequestForm />}
      </section>
    </div>
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
      <p className="mt-6 text-sm">
        <Link to="/auth" className="font-medium text-brand-700 hover:underline">
          Back to sign in
        </Link>
      </p>
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
        <TextField
          field={fields.email}
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
        />
        <button type="submit" className="btn-primary w-full" disabled={pending}>
          {pending ? "Sending..." : "Send reset link"}
        </button>
      </Form>
      <p className="mt-6 text-sm">
        <Link to="/auth" className="font-medium text-brand-700 hover:underline">
          Back to sign in
        </Link>
      </p>
    </>
  );
}
