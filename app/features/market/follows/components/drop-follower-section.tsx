import { Form } from "@remix-run/react";
import { SectionCard } from "~/ui/data-table";

/**
 * The admin portal's Follows section: an address whose mail bounces or that
 * complained (see Undelivered mail, or the mail provider's reports) is dropped
 * from every follow at once. The creators only ever see a count.
 */
export function DropFollowerSection() {
  return (
    <SectionCard
      headingId="follows-heading"
      heading="Follows"
      description={
        <p className="text-sm text-slate-600">
          Drop a follower address that bounces or complained: every follow of it ends and the
          address is deleted. Nothing is mailed to it.
        </p>
      }
      testId="drop-follower"
    >
      <Form method="post" className="flex flex-col gap-2 p-5 sm:flex-row sm:items-end">
        <input type="hidden" name="intent" value="drop-follower" />
        <div className="sm:flex-1">
          <label htmlFor="drop-follower-email" className="field-label">
            Follower email
          </label>
          <input
            id="drop-follower-email"
            name="email"
            type="email"
            required
            maxLength={254}
            autoComplete="off"
            className="field-input"
          />
        </div>
        <button type="submit" className="btn-secondary">
          Drop this address
        </button>
      </Form>
    </SectionCard>
  );
}
