import { formatMoney } from "~/lib/money";
import { useCurrency } from "~/ui/currency";
import { PreviewThumbnail } from "~/features/market/catalog/components/preview-thumbnail";
import { StyleBadge } from "~/features/market/catalog/components/style-badge";
import type { BundleView } from "~/features/market/bundles/types";

/** A bundle's items (preview, title, style, own price), then their sum, the bundle's price and the saving. */
export function BundleItems({ bundle }: { bundle: BundleView }) {
  const currency = useCurrency();
  return (
    <>
      <ul className="divide-y divide-slate-200" data-testid="bundle-items">
        {bundle.items.map((item) => (
          <li
            key={item.listingId}
            className="flex items-center gap-3 py-3"
            data-testid="bundle-item"
          >
            {item.previewUrl ? (
              <PreviewThumbnail src={item.previewUrl} size={64} />
            ) : (
              <span className="h-16 w-16 shrink-0 rounded-md bg-slate-100" />
            )}
            <div className="min-w-0 flex-1">
              {item.live ? (
                <a
                  href={`/marketplace/${item.listingId}`}
                  className="font-medium wrap-anywhere text-slate-900 hover:underline"
                >
                  {item.title}
                </a>
              ) : (
                <p className="font-medium wrap-anywhere text-slate-900">{item.title}</p>
              )}
              <p className="mt-1">
                <StyleBadge style={item.style} />
              </p>
            </div>
            <p className="shrink-0 text-slate-700">{formatMoney(item.priceCents, currency)}</p>
          </li>
        ))}
      </ul>
      <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 border-t border-slate-200 pt-3">
        <dt className="text-slate-700">Bought one by one</dt>
        <dd className="text-right text-slate-700 line-through" data-testid="bundle-sum">
          {formatMoney(bundle.sumCents, currency)}
        </dd>
        <dt className="font-semibold text-slate-900">Bundle price</dt>
        <dd className="text-right text-xl font-bold text-slate-900" data-testid="bundle-price">
          {formatMoney(bundle.priceCents, currency)}
        </dd>
        <dt className="text-emerald-800">You save</dt>
        <dd className="text-right font-medium text-emerald-800" data-testid="bundle-saving">
          {formatMoney(bundle.savingCents, currency)}
        </dd>
      </dl>
    </>
  );
}
