import { Form, useNavigation } from "@remix-run/react";
import { getFormProps, getInputProps } from "@conform-to/react";
import type { SubmissionResult } from "@conform-to/react";
import { FormErrors } from "~/ui/form-field";
import { SubmitButton } from "~/ui/forms/post-form";
import { useScreenForm } from "~/ui/forms/use-screen-form";

/** The form's schema, loaded after the page rendered (until then the server validates). */
const loadSchema = () =>
  import("~/features/market/follows/follow-types").then((m) => m.followSchema);

/**
 * The Follow form of a storefront and a listing page: an email and a button,
 * no account. A plain form post to /follow, so it works without JavaScript;
 * the address is mailed a link to confirm, and every mail after can stop it.
 */
export function FollowForm({
  handle,
  creatorName,
  lastResult,
}: {
  handle: string;
  creatorName: string;
  lastResult?: SubmissionResult<string[]> | null;
}) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formAction === "/follow";
  const [form, fields] = useScreenForm({
    id: "follow",
    loadSchema,
    lastResult,
    defaultValue: { handle, email: "" },
  });
  const emailError = fields.email.errors?.[0];
  return (
    <Form
      method="post"
      action="/follow"
      {...getFormProps(form)}
      className="mt-3 max-w-md"
      data-testid="follow-form"
      aria-label={`Follow ${creatorName}`}
    >
      <FormErrors errors={[...(form.errors ?? []), ...(fields.handle.errors ?? [])]} />
      <input type="hidden" name={fields.handle.name} value={handle} />
      <label htmlFor={fields.email.id} className="field-label">
        Follow <bdi>{creatorName}</bdi>: an email when they list new images, at most one a day
      </label>
      <div className="mt-1 flex flex-col gap-2 sm:flex-row">
        <input
          {...getInputProps(fields.email, { type: "email", ariaAttributes: true })}
          key={fields.email.key}
          autoComplete="email"
          placeholder="you@example.com"
          className="field-input sm:flex-1"
        />
        <SubmitButton pending={pending} pendingLabel="Following..." label="Follow" />
      </div>
      {emailError ? (
        <p id={fields.email.errorId} className="field-error">
          {emailError}
        </p>
      ) : null}
      <p className="mt-1 text-xs text-slate-500">
        No account needed. We mail you a link to confirm; every email has a one-click unfollow.
      </p>
    </Form>
  );
}
