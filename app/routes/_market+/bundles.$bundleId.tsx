import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { viewBundle } from "~/features/market/bundles/procedures.server";
import { viewCart } from "~/features/market/checkout/procedures.server";
import { MarketplaceBreadcrumb } from "~/features/market/catalog/components/marketplace-breadcrumb";
import { BuyButtons } from "~/features/market/checkout/components/buy-buttons";
import { BundleItems } from "~/features/market/bundles/components/bundle-items";
import { bundleCartEntry } from "~/features/market/bundles/bundle-schema";
import { LICENSE_NAME } from "~/lib/license-terms";
import { PRODUCT_NAME } from "~/lib/product";
import { MarketplaceRouteErrorPanel } from "~/ui/error-panel";
import { requireScreenUser } from "~/web/screen-guards.server";
import { readCart } from "~/web/cart.server";
import { loadProcedure } from "~/web/screen-action.server";

/**
 * GET /bundles/{bundleId}: a bundle's public page: its title, creator, items
 * (preview, title, style, own price), their sum, the bundle's price and the
 * saving, and Add to cart / Buy now (the cart's own forms, so both work
 * without JavaScript). A withdrawn bundle's page says it is no longer
 * available and offers neither. 404 for an unknown bundle.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "optional" });
  const bundle = await loadProcedure(viewBundle, args, { id: args.params.bundleId ?? "" }, user);
  const cart = await loadProcedure(
    viewCart,
    args,
    { listingIds: await readCart(args.request) },
    user,
  );
  return json({
    bundle,
    inCart: cart.items.some((item) => item.id === bundleCartEntry(bundle.id)),
  });
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  {
    title: data
      ? `${data.bundle.title} by ${data.bundle.creator.name || "a creator"} | ${PRODUCT_NAME}`
      : `Page Not Found | ${PRODUCT_NAME}`,
  },
];

export default function BundlePage() {
  const { bundle, inCart } = useLoaderData<typeof loader>();
  const here = `/bundles/${bundle.id}`;
  const entry = bundleCartEntry(bundle.id);
  const creatorName = bundle.creator.name || "a creator";
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <MarketplaceBreadcrumb title={bundle.title} />
      <h1
        className="mt-2 text-3xl font-bold wrap-anywhere text-slate-900"
        data-testid="bundle-title"
      >
        {bundle.title}
      </h1>
      <p className="mt-1 text-slate-700">
        A bundle of {bundle.items.length} images by{" "}
        {bundle.creator.handle ? (
          <Link
            to={`/creators/${bundle.creator.handle}`}
            className="font-medium text-brand-700 underline"
          >
            <bdi>{creatorName}</bdi>
          </Link>
        ) : (
          <bdi className="font-medium text-slate-900">{creatorName}</bdi>
        )}
      </p>
      <section className="card mt-6 p-6" aria-label="What the bundle holds">
        <BundleItems bundle={bundle} />
      </section>
      {bundle.available ? (
        <div id={`bundle-${bundle.id}`} className="mt-6 scroll-mt-24 space-y-3">
          <p className="text-sm text-slate-700">
            You get the full-resolution file of each image with the {LICENSE_NAME}.{" "}
            <Link
              to="/license"
              className="inline-block py-0.5 font-medium text-brand-700 underline"
            >
              Read the license terms
            </Link>
          </p>
          <BuyButtons
            entry={entry}
            title={bundle.title}
            inCart={inCart}
            redirectTo={here}
            anchor={`bundle-${bundle.id}`}
          />
        </div>
      ) : (
        <p
          role="status"
          className="mt-6 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-amber-900"
          data-testid="bundle-unavailable"
        >
          This bundle is no longer available.
        </p>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <MarketplaceRouteErrorPanel
      title="Marketplace"
      detail="This bundle could not be loaded. Please try again."
    />
  );
}
