import { Form, Link } from "@remix-run/react";

/**
 * A page's two ways on: a link back (`backTo`, saying `backLabel`) and a form
 * posting to the page, whose primary button says `pendingLabel` and is
 * disabled while it is sent.
 */
export function BackAndSubmit({
  backTo,
  backLabel,
  pending,
  label,
  pendingLabel,
  testId,
  className,
}: {
  backTo: string;
  backLabel: string;
  pending: boolean;
  label: string;
  pendingLabel: string;
  testId: string;
  className: string;
}) {
  return (
    <div className={className}>
      <Link to={backTo} className="btn-secondary">
        {backLabel}
      </Link>
      <Form method="post">
        <button type="submit" className="btn-primary" disabled={pending} data-testid={testId}>
          {pending ? pendingLabel : label}
        </button>
      </Form>
    </div>
  );
}
