import { Form } from "@remix-run/react";
import type { DiscountView } from "~/features/market/discounts/types";

/** When a code works, in words: "from 2027-03-01 to 2027-03-31", "until …", "always". */
function dates(view: DiscountView): string {
  const day = (stamp: string) => stamp.slice(0, 10);
  if (view.startsAt && view.endsAt) return `${day(view.startsAt)} to ${day(view.endsAt)}`;
  if (view.startsAt) return `from ${day(view.startsAt)}`;
  if (view.endsAt) return `until ${day(view.endsAt)}`;
  return "no end date";
}

/** What a code takes off, in words. */
export function discountAmount(view: Pick<DiscountView, "percentOff" | "amountOff">): string {
  return view.percentOff !== null ? `${view.percentOff}% off` : `$${view.amountOff} off`;
}

/** The Discounts screen's list: each code, what it takes off, where, when, its uses, and Delete (a plain form). */
export function MyDiscounts({
  discounts,
  titleOf,
}: {
  discounts: DiscountView[];
  titleOf: (listingId: string) => string;
}) {
  return (
    <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {discounts.map((view) => (
        <li
          key={view.id}
          className="flex flex-wrap items-center gap-3 p-4"
          data-testid="my-discount"
        >
          <div className="min-w-48 flex-1">
            <p className="font-mono font-semibold wrap-anywhere text-slate-900">{view.code}</p>
            <p className="text-sm text-slate-600">
              {discountAmount(view)} ·{" "}
              {view.listingIds ? view.listingIds.map(titleOf).join(", ") : "all your listings"} ·{" "}
              {dates(view)} · used {view.redemptions}
              {view.maxRedemptions !== null ? ` of ${view.maxRedemptions}` : ""} times
            </p>
          </div>
          <Form method="post" action="/discounts">
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={view.id} />
            <button type="submit" className="btn-secondary" data-testid="delete-discount">
              Delete <span className="sr-only">{view.code}</span>
            </button>
          </Form>
        </li>
      ))}
    </ul>
  );
}
