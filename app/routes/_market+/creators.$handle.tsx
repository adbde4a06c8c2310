import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { viewCart } from "~/features/market/checkout/procedures.server";
import { viewStorefront } from "~/features/market/catalog/procedures.server";
import { ListingGrid, ListingsEmpty } from "~/features/market/catalog/components/listing-grid";
import { MarketplaceFilters } from "~/features/market/catalog/components/marketplace-filters";
import { Avatar } from "~/ui/avatar";
import {
  PAGE_NOT_FOUND,
  RouteErrorPanel,
  routeErrorMessage,
  BACK_TO_MARKETPLACE,
} from "~/ui/error-panel";
import { shareMetaTags } from "~/ui/share-meta";
import { PRODUCT_NAME } from "~/lib/product";
import { ADDED_PARAM } from "~/lib/back-to-item";
import { requireScreenUser } from "~/web/screen-guards.server";
import { readCart } from "~/web/cart.server";
import { loadProcedure } from "~/web/screen-action.server";
import { ReportLink } from "~/features/reports/components/report-link";
import { FollowForm } from "~/features/market/follows/components/follow-form";
import { creatorBundles } from "~/features/market/bundles/procedures.server";
import { BundleCard } from "~/features/market/bundles/components/bundle-card";

/**
 * GET /creators/{handle}: a creator's storefront (public, served to visitors
 * from the page cache): avatar, name, bio and their live listings with the
 * marketplace's style filter, search and pages, and their bundles for sale
 * (cards linking to each bundle's page). 404 for an unknown handle or
 * a banned or erased creator.
 */
export async function loader(args: LoaderFunctionArgs) {
  const url = new URL(args.request.url);
  const param = (name: string) => url.searchParams.get(name) ?? "";
  const user = await requireScreenUser(args.request, { access: "optional" });
  const { creator, page } = await loadProcedure(
    viewStorefront,
    args,
    {
      handle: args.params.handle ?? "",
      style: param("style"),
      q: param("q"),
      cursor: param("cursor"),
    },
    user,
  );
  const bundles = await loadProcedure(creatorBundles, args, { creatorId: creator.id }, user);
  const cart = await loadProcedure(
    viewCart,
    args,
    { listingIds: await readCart(args.request) },
    user,
  );
  const here = new URL(url);
  here.searchParams.delete("_data");
  here.searchParams.delete(ADDED_PARAM);
  const withoutCursor = new URLSearchParams(here.searchParams);
  withoutCursor.delete("cursor");
  return json({
    creator,
    page,
    bundles,
    inCart: cart.items.map((item) => item.listingId ?? item.id),
    filters: { style: param("style"), q: param("q"), cursor: param("cursor") },
    baseQuery: withoutCursor.toString(),
    redirectTo: here.pathname + here.search,
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => {
  if (!data) return [{ title: `Page Not Found | ${PRODUCT_NAME}` }];
  const { creator } = data;
  const name = creator.name || creator.handle || "A creator";
  const description =
    creator.bio?.trim() ||
    `AI-styled portraits by ${name} on ${PRODUCT_NAME}, each with a standard commercial license.`;
  const first = data.page.items[0];
  return shareMetaTags({
    title: `${name} (@${creator.handle}) | ${PRODUCT_NAME}`,
    shareTitle: `${name} on ${PRODUCT_NAME}`,
    description,
    url: creator.storefrontUrl ?? "",
    type: "profile",
    image: first
      ? {
          url: `${new URL(creator.storefrontUrl ?? "http://localhost").origin}${first.previewUrl}`,
          width: first.previewWidth,
          height: Math.round((first.height * first.previewWidth) / Math.max(1, first.width)),
          alt: `${first.title} (watermarked preview)`,
        }
      : null,
  });
};

export default function Storefront() {
  const data = useLoaderData<typeof loader>();
  const { creator } = data;
  const name = creator.name || creator.handle || "A creator";
  const inCart = new Set(data.inCart);
  const base = `/creators/${creator.handle}`;
  const filtered = Boolean(data.filters.style || data.filters.q);
  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <header className="flex flex-col items-start gap-4 sm:flex-row sm:items-center">
        <Avatar src={creator.avatarUrl} name={name} size="h-20 w-20 text-lg" />
        <div className="min-w-0">
          <h1 className="text-3xl font-bold wrap-anywhere text-slate-900">{name}</h1>
          <p className="text-sm text-slate-600">@{creator.handle}</p>
          {creator.bio ? (
            <p
              className="mt-2 max-w-2xl whitespace-pre-line text-slate-700"
              data-testid="creator-bio"
            >
              {creator.bio}
            </p>
          ) : null}
          {creator.handle ? <FollowForm handle={creator.handle} creatorName={name} /> : null}
          {creator.handle ? (
            <p className="mt-2">
              <ReportLink target={{ handle: creator.handle }} what="this storefront" />
            </p>
          ) : null}
        </div>
      </header>
      {data.bundles.length > 0 ? (
        <section className="mt-8" aria-labelledby="bundles-heading">
          <h2 id="bundles-heading" className="text-xl font-semibold text-slate-900">
            Bundles
          </h2>
          <ul className="mt-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {data.bundles.map((bundle) => (
              <li key={bundle.id} className="flex">
                <BundleCard bundle={bundle} />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      <div className="mt-8 space-y-6">
        <MarketplaceFilters style={data.filters.style} q={data.filters.q} action={base} />
        <ListingGrid
          heading={
            <>
              Images for sale by <bdi>{name}</bdi>
            </>
          }
          listings={data.page.items}
          inCart={inCart}
          redirectTo={data.redirectTo}
          empty={
            <ListingsEmpty
              searched={filtered || Boolean(data.filters.cursor)}
              none={`${name} has no images for sale yet.`}
            >
              {filtered ? (
                <p className="mt-1 text-sm">
                  <Link to={base} className="text-brand-700 underline">
                    Clear the filters
                  </Link>
                </p>
              ) : null}
            </ListingsEmpty>
          }
          pages={{
            path: base,
            baseQuery: data.baseQuery,
            nextCursor: data.page.nextCursor,
            cursor: data.filters.cursor,
          }}
        />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <RouteErrorPanel
      notFound={PAGE_NOT_FOUND}
      otherwise={(error) => ({
        title: "Storefront",
        detail: routeErrorMessage(error, "This storefront could not be loaded. Please try again."),
        ...BACK_TO_MARKETPLACE,
      })}
    />
  );
}
