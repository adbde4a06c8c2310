import type { ReactNode } from "react";
import { CartButton } from "~/features/market/checkout/components/cart-button";
import { PreviewThumbnail } from "~/features/market/catalog/components/preview-thumbnail";

/**
 * The images in a cart (the marketplace's cart panel and the checkout page), one line each: its
 * preview, what `details` says about it (title, style, price, pixel size), then its compact
 * remove button.
 */
export function CartLines<T extends { id: string; title: string; previewUrl: string }>({
  items,
  lineClassName,
  thumbnailSize,
  redirectTo,
  details,
}: {
  items: T[];
  lineClassName: string;
  thumbnailSize: 48 | 64;
  redirectTo: string;
  details: (item: T) => ReactNode;
}) {
  return (
    <ul className="mt-3 divide-y divide-slate-200">
      {items.map((item) => (
        <li key={item.id} className={lineClassName} data-testid="cart-line">
          <PreviewThumbnail src={item.previewUrl} size={thumbnailSize} />
          <div className="min-w-0 flex-1">{details(item)}</div>
          <div className="shrink-0">
            <CartButton
              listingId={item.id}
              title={item.title}
              inCart
              redirectTo={redirectTo}
              compact
            />
          </div>
        </li>
      ))}
    </ul>
  );
}
