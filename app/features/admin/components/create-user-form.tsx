import type { SubmissionResult } from "@conform-to/react";
import { useEffect, useRef } from "react";
import { TextField } from "~/ui/form-field";
import { useScreenForm } from "~/ui/forms/use-screen-form";
import { PostForm, SubmitButton } from "~/ui/forms/post-form";
import { useIntentPending } from "~/ui/forms/use-intent-pending";

/** The form's schema, loaded after the page rendered. */
const loadCreateUserSchema = () =>
  import("~/features/admin/schemas").then((m) => m.adminCreateUserSchema);

/**
 * The admin creates accounts here (the only way in while registration is
 * closed). The same zod schema checks the form in the browser and on the server.
 */
export function CreateUserForm({
  lastResult,
  registrationOpen = false,
}: {
  lastResult: SubmissionResult<string[]> | undefined;
  registrationOpen?: boolean;
}) {
  const pending = useIntentPending("create-user");
  const [form, fields] = useScreenForm({
    id: "create-user",
    loadSchema: loadCreateUserSchema,
    lastResult,
  });

  // Empty the form after a successful creation (the action redirects, so no result comes back).
  const submitted = useRef(false);
  useEffect(() => {
    if (pending) {
      submitted.current = true;
    } else if (submitted.current) {
      submitted.current = false;
      if (!lastResult) form.reset();
    }
  }, [pending, lastResult, form]);

  return (
    <section aria-labelledby="create-user-heading" className="card p-6">
      <h2 id="create-user-heading" className="text-lg font-semibold text-slate-900">
        Create User
      </h2>
      <p className="mt-1 text-sm text-slate-600" data-testid="create-user-intro">
        {registrationOpen
          ? "Creators can also register themselves; create an account for someone here. They sign in with this email and password."
          : "Registration is closed, so new creators get their account here. They sign in with this email and password."}
      </p>
      <PostForm
        form={form}
        action="/admin"
        hidden={{ intent: "create-user" }}
        className="mt-5 grid gap-4 sm:grid-cols-2"
        testId="create-user-form"
        errorsClassName="sm:col-span-2"
      >
        <TextField field={fields.firstName} label="First Name" autoComplete="off" />
        <TextField field={fields.lastName} label="Last Name" autoComplete="off" />
        <TextField field={fields.email} label="Email" type="email" autoComplete="off" />
        <TextField
          field={fields.password}
          label="Password"
          type="password"
          placeholder="Minimum 8 characters"
          autoComplete="new-password"
        />
        <div className="sm:col-span-2">
          <SubmitButton pending={pending} pendingLabel="Creating..." label="Create User" />
        </div>
      </PostForm>
    </section>
  );
}
