import { Form, Link } from "@remix-run/react";
import { formatMoney } from "~/lib/money";
import type { BundleView } from "~/features/market/bundles/types";

/** "Your bundles" on My listings: each bundle, its state, its page and Withdraw (a plain form). */
export function MyBundles({ bundles }: { bundles: BundleView[] }) {
  return (
    <ul className="mt-3 divide-y divide-slate-200 rounded-lg border border-slate-200 bg-white">
      {bundles.map((bundle) => (
        <li
          key={bundle.id}
          className="flex flex-wrap items-center gap-3 p-4"
          data-testid="my-bundle"
        >
          {/* At least 12rem before the buttons: on a phone they go under it, and no word is split. */}
          <div className="min-w-48 flex-1">
            <p className="font-semibold wrap-anywhere text-slate-900">{bundle.title}</p>
            <p className="text-sm text-slate-600">
              {bundle.items.length} images · {formatMoney(bundle.priceCents)} (their sum{" "}
              {formatMoney(bundle.sumCents)}) · {bundle.available ? "Live" : "Withdrawn"}
            </p>
          </div>
          <Link to={`/bundles/${bundle.id}`} className="btn-ghost">
            View <span className="sr-only">“{bundle.title}”</span>
          </Link>
          {bundle.status === "active" ? (
            <Form method="post" action="/listings">
              <input type="hidden" name="intent" value="withdraw-bundle" />
              <input type="hidden" name="id" value={bundle.id} />
              <button type="submit" className="btn-secondary" data-testid="withdraw-bundle">
                Withdraw <span className="sr-only">“{bundle.title}”</span>
              </button>
            </Form>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
