import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import {
  countMarketplaceViews,
  viewListingPage,
} from "~/features/market/catalog/procedures.server";
import { viewCart } from "~/features/market/checkout/procedures.server";
import { MarketplaceBreadcrumb } from "~/features/market/catalog/components/marketplace-breadcrumb";
import { CartButton } from "~/features/market/checkout/components/cart-button";
import { BuyButtons } from "~/features/market/checkout/components/buy-buttons";
import { SaveButton } from "~/features/market/saved/components/save-button";
import { ListingCard } from "~/features/market/catalog/components/listing-card";
import { PixelSize, SaleFileSize } from "~/features/market/catalog/components/pixel-size";
import { StyleBadge } from "~/features/market/catalog/components/style-badge";
import { AiLabelBadge } from "~/features/market/catalog/components/ai-label-badge";
import { AI_LABEL_MEANING } from "~/lib/ai-label";
import { Avatar } from "~/ui/avatar";
import { MarketplaceRouteErrorPanel } from "~/ui/error-panel";
import { JsonLd, shareMetaTags } from "~/ui/share-meta";
import { ResponsivePicture } from "~/ui/responsive-picture";
import { LICENSE_NAME, LICENSES } from "~/lib/license-terms";
import { LicensePicker } from "~/features/market/catalog/components/license-picker";
import { formatMoney } from "~/lib/money";
import { useCurrency } from "~/ui/currency";
import { PRODUCT_NAME } from "~/lib/product";
import { styleName } from "~/lib/styles";
import { requireScreenUser } from "~/web/screen-guards.server";
import { readCart } from "~/web/cart.server";
import { loadProcedure } from "~/web/screen-action.server";
import { isFreshView } from "~/web/fresh-view.server";
import { ReportLink } from "~/features/reports/components/report-link";
import { FollowForm } from "~/features/market/follows/components/follow-form";

/** How wide the page shows the preview: the left column from lg, else the page's width. */
const PREVIEW_SIZES = "(min-width: 1024px) 640px, calc(100vw - 32px)";

/**
 * GET /marketplace/{listingId}: a live listing's own page (public, served to
 * visitors from the page cache): the watermarked preview large, the details,
 * the license, the creator, Add to cart, Buy now and Save (the cart's and the
 * saved list's own forms, so all work without JavaScript, coming back to the
 * buy box), more from the same creator, and the tags a shared link is shown
 * with (Open Graph, Twitter, JSON-LD). 404 otherwise.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "optional" });
  const page = await loadProcedure(
    viewListingPage,
    args,
    { listingId: args.params.listingId ?? "" },
    user,
  );
  // The listing counts as viewed, once per visitor and day, as on the marketplace; a copy from the visitors' cache counts too.
  if (isFreshView(args.request))
    await loadProcedure(countMarketplaceViews, args, { listingIds: [page.listing.id] }, user);
  if (args.context.pageNotes) args.context.pageNotes.shownListings = [page.listing.id];
  const cart = await loadProcedure(
    viewCart,
    args,
    { listingIds: await readCart(args.request) },
    user,
  );
  return json({
    ...page,
    inCart: cart.items.map((item) => item.listingId ?? item.id),
    // The tier this listing's cart entry names, when it is in the cart (decision 101).
    inCartLicense:
      cart.items.find((item) => item.listingId === page.listing.id)?.licenseType ?? null,
    cartEntry: cart.items.find((item) => item.listingId === page.listing.id)?.id ?? null,
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: `Page Not Found | ${PRODUCT_NAME}` }];
  return shareMetaTags({
    title: `${data.listing.title} by ${data.creator.name || "a creator"} | ${PRODUCT_NAME}`,
    shareTitle: data.listing.title,
    description: describe(data.listing.description, data.listing.style),
    url: data.url,
    type: "product",
    image: {
      url: data.socialCard.url,
      width: data.socialCard.width,
      height: data.socialCard.height,
      alt: `${data.listing.title} (watermarked preview)`,
    },
  });
};

function describe(description: string, style: string): string {
  const text =
    description.trim() ||
    `A ${styleName(style).toLowerCase()} style portrait with a standard commercial license.`;
  const chars = Array.from(text);
  return chars.length > 200 ? `${chars.slice(0, 199).join("").trimEnd()}…` : text;
}

export default function ListingPage() {
  const data = useLoaderData<typeof loader>();
  const { listing, creator } = data;
  const currency = useCurrency();
  const inCart = new Set(data.inCart);
  const here = `/marketplace/${listing.id}`;
  const previewHeight = Math.round(
    (listing.height * listing.previewWidth) / Math.max(1, listing.width),
  );
  const creatorName = creator.name || "a creator";
  return (
    <div className="mx-auto max-w-6xl px-4 py-8">
      <JsonLd
        data={{
          "@context": "https://schema.org",
          "@type": "Product",
          name: listing.title,
          description: listing.description || undefined,
          image: [data.socialCard.url],
          sku: listing.id,
          url: data.url,
          category: `${styleName(listing.style)} portrait`,
          // How it was made, as the file's own metadata states it (IPTC Digital Source Type).
          additionalProperty: {
            "@type": "PropertyValue",
            name: "AI disclosure",
            value: listing.aiLabel,
            description: AI_LABEL_MEANING[listing.aiLabel],
          },
          offers: {
            "@type": "Offer",
            url: data.url,
            price: (listing.priceCents / 100).toFixed(2),
            priceCurrency: currency.toUpperCase(),
            availability: "https://schema.org/InStock",
            seller: {
              "@type": "Person",
              name: creatorName,
              ...(creator.storefrontUrl ? { url: creator.storefrontUrl } : {}),
            },
          },
        }}
      />
      <MarketplaceBreadcrumb title={listing.title} />
      <div className="mt-4 grid gap-8 lg:grid-cols-[640px_minmax(0,1fr)]">
        <div className="flex items-start justify-center overflow-hidden rounded-xl bg-slate-100">
          <ResponsivePicture
            src={listing.previewUrl}
            sourceWidth={listing.previewWidth}
            sizes={PREVIEW_SIZES}
            width={listing.previewWidth}
            height={previewHeight}
            alt={`Preview of ${listing.title} (watermarked)`}
            loading="eager"
            highPriority
            // At most its own size: the preview is never drawn larger than it is.
            className="h-auto max-w-full"
          />
        </div>
        <div className="min-w-0 space-y-5" data-testid="listing-details">
          <div>
            <div className="flex flex-wrap items-center gap-2">
              <StyleBadge style={listing.style} />
              <AiLabelBadge label={listing.aiLabel} />
              <PixelSize width={listing.width} height={listing.height} />
            </div>
            <h1
              className="mt-2 text-3xl font-bold wrap-anywhere text-slate-900"
              data-testid="listing-title"
            >
              {listing.title}
            </h1>
            <p className="mt-2 text-2xl font-bold text-slate-900" data-testid="listing-page-price">
              {formatMoney(listing.priceCents, currency)}
            </p>
          </div>
          <CreatorLine creator={creator} name={creatorName} />
          {listing.description ? (
            <p className="whitespace-pre-line wrap-anywhere text-slate-700">
              {listing.description}
            </p>
          ) : null}
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
            <dt className="font-medium text-slate-900">Style</dt>
            <dd className="text-slate-700">{styleName(listing.style)}</dd>
            <dt className="font-medium text-slate-900">Made with</dt>
            <dd className="text-slate-700" data-testid="ai-label-meaning">
              {listing.aiLabel}: {AI_LABEL_MEANING[listing.aiLabel]}{" "}
              <span className="block">
                The file you buy says so in its signed Content Credentials.{" "}
                <Link to="/provenance" className="text-brand-700 underline">
                  Check a file&apos;s Content Credentials
                </Link>
              </span>
            </dd>
            <dt className="font-medium text-slate-900">Pixel size</dt>
            <dd className="text-slate-700">
              <SaleFileSize
                width={listing.width}
                height={listing.height}
                upscaling={listing.upscaling}
              />
            </dd>
            {listing.tags.length > 0 ? (
              <>
                <dt className="font-medium text-slate-900">Tags</dt>
                <dd>
                  <ul className="flex flex-wrap gap-1" aria-label="Tags">
                    {listing.tags.map((tag) => (
                      <li
                        key={tag}
                        className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700"
                      >
                        {tag}
                      </li>
                    ))}
                  </ul>
                </dd>
              </>
            ) : null}
          </dl>
          <p className="text-sm text-slate-700" data-testid="license-sentence">
            {listing.licenses.length > 1
              ? "Buying gets you the full-resolution file with the license you choose below. "
              : `Buying gets you the full-resolution file with the ${LICENSE_NAME}: ${LICENSES.standard.summary} `}
            {/* inline-block with py-0.5: a tap target 24 px tall. */}
            <Link
              to="/license"
              className="inline-block py-0.5 font-medium text-brand-700 underline"
            >
              Read the license terms
            </Link>
          </p>
          <p>
            <ReportLink target={{ listingId: listing.id }} what="this image" />
          </p>
          {/* The buy box: where its forms bring the page back without JavaScript (#listing-<id>). */}
          <div id={`listing-${listing.id}`} className="scroll-mt-24 space-y-2">
            {listing.licenses.length > 1 ? (
              <LicensePicker
                listingId={listing.id}
                title={listing.title}
                licenses={listing.licenses}
                inCartLicense={data.inCartLicense}
                redirectTo={here}
                anchor={`listing-${listing.id}`}
                currency={currency}
              />
            ) : null}
            {listing.licenses.length > 1 && data.cartEntry ? (
              <CartButton
                listingId={data.cartEntry}
                title={listing.title}
                inCart
                redirectTo={here}
                anchor={`listing-${listing.id}`}
              />
            ) : null}
            {listing.licenses.length > 1 ? null : (
              <BuyButtons
                entry={listing.id}
                title={listing.title}
                inCart={inCart.has(listing.id)}
                redirectTo={here}
                anchor={`listing-${listing.id}`}
              />
            )}
            <SaveButton
              listingId={listing.id}
              title={listing.title}
              redirectTo={here}
              anchor={`listing-${listing.id}`}
            />
          </div>
          {creator.handle ? <FollowForm handle={creator.handle} creatorName={creatorName} /> : null}
        </div>
      </div>
      {data.more.length > 0 ? (
        <section className="mt-12" aria-labelledby="more-heading">
          <h2 id="more-heading" className="text-xl font-semibold text-slate-900">
            More from {creatorName}
          </h2>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {data.more.map((item) => (
              <li key={item.id} className="flex">
                <ListingCard listing={item} inCart={inCart.has(item.id)} redirectTo={here} />
              </li>
            ))}
          </ul>
          {creator.handle ? (
            <p className="mt-4">
              <Link
                to={`/creators/${creator.handle}`}
                className="font-medium text-brand-700 underline"
              >
                See all of {creatorName}&apos;s images
              </Link>
            </p>
          ) : null}
        </section>
      ) : null}
    </div>
  );
}

function CreatorLine({
  creator,
  name,
}: {
  creator: { handle: string | null; avatarUrl: string | null };
  name: string;
}) {
  const face = (
    <>
      <Avatar src={creator.avatarUrl} name={name} size="h-10 w-10" />
      <span>
        by <bdi className="font-medium text-slate-900">{name}</bdi>
      </span>
    </>
  );
  return creator.handle ? (
    <Link
      to={`/creators/${creator.handle}`}
      className="inline-flex items-center gap-3 text-slate-700 hover:underline"
      data-testid="creator-link"
    >
      {face}
    </Link>
  ) : (
    <p className="inline-flex items-center gap-3 text-slate-700">{face}</p>
  );
}

export function ErrorBoundary() {
  return (
    <MarketplaceRouteErrorPanel
      title="Marketplace"
      detail="This image could not be loaded. Please try again."
    />
  );
}
