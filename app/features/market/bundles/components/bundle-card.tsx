import { Link } from "@remix-run/react";
import { formatMoney } from "~/lib/money";
import { useCurrency } from "~/ui/currency";
import { PreviewThumbnail } from "~/features/market/catalog/components/preview-thumbnail";
import type { BundleView } from "~/features/market/bundles/types";

/** A bundle on a storefront: its items' previews side by side, title, count, price and saving, linking to its page. */
export function BundleCard({ bundle }: { bundle: BundleView }) {
  const currency = useCurrency();
  return (
    <article className="card flex w-full flex-col gap-3 p-4" data-testid="bundle-card">
      <div className="flex flex-wrap gap-1" aria-hidden="true">
        {bundle.items
          .slice(0, 4)
          .map((item) =>
            item.previewUrl ? (
              <PreviewThumbnail key={item.listingId} src={item.previewUrl} size={64} />
            ) : null,
          )}
      </div>
      <h3 className="font-semibold wrap-anywhere text-slate-900">
        <Link to={`/bundles/${bundle.id}`} className="hover:underline">
          {bundle.title}
        </Link>
      </h3>
      <p className="text-sm text-slate-600">
        Bundle of {bundle.items.length} images ·{" "}
        <span className="font-semibold text-slate-900">
          {formatMoney(bundle.priceCents, currency)}
        </span>{" "}
        <span className="text-emerald-800">(save {formatMoney(bundle.savingCents, currency)})</span>
      </p>
    </article>
  );
}
