import type { ReactNode } from "react";
import { Form, useNavigation } from "@remix-run/react";
import { FormErrors } from "~/ui/form-field";

/**
 * The body of a page opened from a mailed link: while the link is valid, what confirming does, the
 * reply's errors and a one-button form posting the link's token; otherwise the link's problem.
 */
export function TokenConfirmation({
  valid,
  token,
  message,
  invalidTestId,
  errors,
  formClassName,
  buttonClassName,
  buttonTestId,
  label,
  pendingLabel,
  children,
}: {
  valid: boolean;
  token: string;
  /** Why the link is no good, shown when it is not valid. */
  message: string | null | undefined;
  invalidTestId: string;
  errors: string[] | undefined;
  formClassName?: string;
  buttonClassName: string;
  buttonTestId: string;
  label: string;
  pendingLabel: string;
  /** What confirming does, above the form. */
  children: ReactNode;
}) {
  const pending = useNavigation().state !== "idle";
  return valid ? (
    <>
      {children}
      <FormErrors errors={errors} />
      <Form method="post" className={formClassName}>
        <input type="hidden" name="token" value={token} />
        <button
          type="submit"
          className={buttonClassName}
          disabled={pending}
          data-testid={buttonTestId}
        >
          {pending ? pendingLabel : label}
        </button>
      </Form>
    </>
  ) : (
    <div data-testid={invalidTestId}>
      <FormErrors errors={[message ?? ""]} />
    </div>
  );
}
