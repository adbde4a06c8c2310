import { Link, useLocation } from "@remix-run/react";
import { ResponsivePicture } from "~/ui/responsive-picture";
import { StyleBadge } from "~/features/market/catalog/components/style-badge";
import {
  CONFIRM_WITHDRAW_PARAM,
  WithdrawConfirmation,
  confirmWithdrawHref,
} from "~/features/market/catalog/components/withdraw-confirmation";

/** How wide a listing's preview is drawn: max-w-5xl with px-4, 1 / 2 / 3 columns with gap-4. */
const MY_LISTING_SIZES =
  "(min-width: 1024px) 320px, (min-width: 640px) calc((100vw - 3rem) / 2), calc(100vw - 2rem)";

/** What /listings shows of one of the creator's listings. */
export interface MyListing {
  id: string;
  stylizedImageId: string | null;
  title: string;
  style: string;
  price: string;
  status: "active" | "withdrawn";
  previewUrl: string | null;
  views: number;
  platforms: { platform: string; status: string; url: string | null }[];
}

/**
 * The creator's listings on /listings. Withdraw asks first: it is a link to
 * ?confirmWithdraw=<id>, which shows the confirmation (a panel without
 * JavaScript, a dialog with it); only the confirmation's button posts.
 */
export function MyListings({ listings }: { listings: MyListing[] }) {
  const location = useLocation();
  const confirmId = new URLSearchParams(location.search).get(CONFIRM_WITHDRAW_PARAM);
  const confirming = confirmId
    ? listings.find((listing) => listing.id === confirmId && listing.status === "active")
    : undefined;
  return (
    <>
      <ul className="mt-3 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
        {listings.map((listing) => (
          <li key={listing.id} className="card min-w-0 overflow-hidden" data-testid="my-listing">
            {listing.previewUrl ? (
              <ResponsivePicture
                src={listing.previewUrl}
                sizes={MY_LISTING_SIZES}
                width={640}
                height={640}
                alt=""
                className="aspect-square w-full object-cover"
              />
            ) : null}
            <div className="space-y-2 p-4">
              <div className="flex items-start justify-between gap-2">
                <p className="min-w-0 font-semibold [overflow-wrap:anywhere] text-slate-900">
                  {listing.title}
                </p>
                <StyleBadge style={listing.style} />
              </div>
              <p className="text-sm text-slate-600">
                ${listing.price} · {listing.status === "active" ? "Live" : "Withdrawn"} ·{" "}
                {listing.views} views
              </p>
              {listing.status === "active" ? (
                <div className="flex flex-wrap gap-2">
                  {listing.platforms[0]?.url ? (
                    <a href={listing.platforms[0].url} className="btn-ghost">
                      View
                    </a>
                  ) : null}
                  {listing.stylizedImageId ? (
                    <Link
                      to={`/listings?stylizedImageId=${encodeURIComponent(listing.stylizedImageId)}`}
                      className="btn-ghost"
                    >
                      Edit
                    </Link>
                  ) : null}
                  <Link
                    to={confirmWithdrawHref(location.search, listing.id)}
                    preventScrollReset
                    className="btn-secondary"
                    data-testid="withdraw-link"
                  >
                    Withdraw… <span className="sr-only">“{listing.title}”</span>
                  </Link>
                </div>
              ) : null}
            </div>
          </li>
        ))}
      </ul>
      {confirming ? (
        <WithdrawConfirmation
          listing={confirming}
          closeHref={confirmWithdrawHref(location.search, null)}
        />
      ) : null}
    </>
  );
}
