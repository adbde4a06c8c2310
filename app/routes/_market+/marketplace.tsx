import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useFetchers, useLoaderData, useRouteError } from "@remix-run/react";
import { useEffect, useMemo, useRef } from "react";
import { PageHeader } from "~/ui/page-header";
import { useToast } from "~/ui/toaster";
import { CartPanel } from "~/features/market/checkout/components/cart-panel";
import type { CartPanelItem } from "~/features/market/checkout/components/cart-panel";
import { ListingGrid, ListingsEmpty } from "~/features/market/catalog/components/listing-grid";
import { MarketplaceFilters } from "~/features/market/catalog/components/marketplace-filters";
import { PurchaseComplete } from "~/features/market/checkout/components/purchase-complete";
import { PAYMENT_STATUS_UNKNOWN, PAYMENT_SUCCESSFUL } from "~/features/market/types";
import { PRODUCT_NAME } from "~/lib/product";
import { ADDED_PARAM } from "~/lib/back-to-item";
import { browseMarketplace, listingRatings } from "~/features/market/catalog/procedures.server";
import { viewCart } from "~/features/market/checkout/procedures.server";
import { checkoutReturnStatus } from "~/features/market/checkout/payment-status.procedures.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { cartHeader, readCart } from "~/web/cart.server";
import { isFreshView } from "~/web/fresh-view.server";
import { attemptProcedure, loadProcedure, refusalResponse } from "~/web/screen-action.server";
import { ErrorPanel, routeErrorMessage } from "~/ui/error-panel";

export const meta: MetaFunction = () => [
  { title: `Marketplace | ${PRODUCT_NAME}` },
  { name: "description", content: "Buy AI-styled portraits with a standard commercial license." },
];

const RETURN_PARAMS = ["session_id", "success", "checkout"];

export async function loader(args: LoaderFunctionArgs) {
  // Public: anyone may browse and buy.
  const { request } = args;
  const url = new URL(request.url);
  const user = await requireScreenUser(request, { access: "optional" });
  const param = (name: string) => url.searchParams.get(name) ?? "";
  const page = await loadProcedure(
    browseMarketplace,
    args,
    { style: param("style"), q: param("q"), cursor: param("cursor"), listing: param("listing") },
    user,
    { countsViews: isFreshView(request) },
  );
  // A visitor's copy of this page may serve other visitors for a moment; each of them counts these views too.
  if (args.context.pageNotes)
    args.context.pageNotes.shownListings = page.items.map((item) => item.id);

  // Buyers' ratings replace a card's illustrative stars wherever a listing has any.
  const ratings = await loadProcedure(
    listingRatings,
    args,
    { listingIds: page.items.map((item) => item.id) },
    null,
  );

  const headers = new Headers();
  let cartIds = await readCart(request);
  let purchase = null;
  const sessionId = url.searchParams.get("session_id");
  const returned = Boolean(sessionId) && url.searchParams.get("success") === "true";
  if (returned && sessionId) {
    // A session it cannot find (a refusal under 500) shows no purchase; the rest go to the ErrorBoundary.
    const outcome = await attemptProcedure(checkoutReturnStatus, args, { sessionId }, user);
    if (outcome.ok) purchase = outcome.result;
    else if (outcome.refusal.status >= 500) throw refusalResponse(outcome.refusal);
    // Paid: the cart has done its job.
    if (purchase?.success && cartIds.length > 0) {
      cartIds = [];
      headers.append("Set-Cookie", await cartHeader([]));
    }
  }
  const cart = await loadProcedure(viewCart, args, { listingIds: cartIds }, user);
  if (cart.unavailable.length > 0) {
    headers.append("Set-Cookie", await cartHeader(cart.items.map((item) => item.id)));
  }

  const here = new URL(url);
  // A no-JavaScript add's `added` says so once, on the page it came back to; the page's own links and forms leave it.
  for (const name of [...RETURN_PARAMS, ADDED_PARAM, "_data"]) here.searchParams.delete(name);
  const withoutCursor = new URLSearchParams(here.searchParams);
  withoutCursor.delete("cursor");
  return json(
    {
      page,
      ratings,
      cart: cart.items,
      // The header counts this page's cart (root's read the cookie before a paid return emptied it).
      cartIds: cart.items.map((item) => item.id),
      filters: {
        style: param("style"),
        q: param("q"),
        listing: param("listing"),
        cursor: param("cursor"),
      },
      baseQuery: withoutCursor.toString(),
      redirectTo: here.pathname + here.search,
      returned,
      purchase: purchase
        ? {
            success: purchase.success,
            paymentStatus: purchase.paymentStatus,
            customerEmail: purchase.customerEmail,
            customerName: purchase.customerName,
            sessionId: purchase.sessionId,
            licenseUrl: purchase.licenseUrl,
            testMode: purchase.testMode,
            downloads: purchase.downloads,
            refundRequest: purchase.refundRequest,
            refundableUntil: purchase.refundableUntil,
            subtotal: purchase.subtotal,
            discount: purchase.discount,
            tax: purchase.tax,
            total: purchase.total,
            currency: purchase.currency,
            country: purchase.country,
            taxRate: purchase.taxRate,
            reverseCharge: purchase.reverseCharge,
          }
        : null,
      cancelled: url.searchParams.get("checkout") === "cancelled",
    },
    { headers },
  );
}

export default function Marketplace() {
  const data = useLoaderData<typeof loader>();
  const cartItems = useOptimisticCart(data.cart, data.page.items);
  // A card is in the cart whatever licence tier its entry names.
  const inCart = new Set(cartItems.map((item) => item.listingId ?? item.id));
  const toast = useToast();
  const announced = useRef(false);
  useEffect(() => {
    if (announced.current) return;
    announced.current = true;
    if (data.returned) {
      if (data.purchase?.success)
        toast({
          kind: "success",
          title: PAYMENT_SUCCESSFUL.title,
          description: "Your downloads are ready.",
        });
      else if (data.purchase?.paymentStatus !== "processing")
        toast({ kind: "error", ...PAYMENT_STATUS_UNKNOWN });
    } else if (data.cancelled) {
      toast({
        kind: "info",
        title: "Checkout cancelled",
        description: "No payment was taken. Your cart is still here.",
      });
    }
  }, [data.returned, data.purchase, data.cancelled, toast]);

  const filtered = Boolean(data.filters.style || data.filters.q);

  return (
    <div className="mx-auto max-w-7xl px-4 py-8">
      <PageHeader
        title="Marketplace"
        subtitle="AI-styled portraits by our creators. Every purchase includes the full-resolution file and a standard commercial license."
        actions={
          // The cart from the top of the page (on a phone it sits below the images): jumps to it, Checkout included.
          <a href="#cart" className="btn-secondary gap-2" data-testid="cart-jump">
            {/* Named by what it shows ("Cart 2 items"), so a voice user can say the visible text. */}
            Cart{" "}
            <span
              className="rounded-full bg-brand-600 px-2 py-0.5 text-xs font-bold text-white"
              data-testid="cart-badge"
            >
              {cartItems.length}
            </span>{" "}
            <span className="sr-only">{cartItems.length === 1 ? "item" : "items"}</span>
          </a>
        }
      />
      <div className="mt-6">
        {data.returned ? <PurchaseComplete result={data.purchase} /> : null}
        {data.cancelled ? (
          <p
            className="mb-6 rounded-lg border border-slate-200 bg-white px-4 py-3 text-sm text-slate-700"
            role="status"
          >
            Checkout cancelled. No payment was taken; your cart is still here.
          </p>
        ) : null}
      </div>
      <div className="grid gap-6 lg:grid-cols-[1fr_20rem]">
        <div className="min-w-0 space-y-6">
          <MarketplaceFilters style={data.filters.style} q={data.filters.q} />
          {data.filters.listing ? (
            <p className="text-sm text-slate-600">
              Showing one listing.{" "}
              <Link to="/marketplace" className="font-medium text-brand-700 underline">
                Show all images
              </Link>
            </p>
          ) : null}
          <ListingGrid
            heading="Images for sale"
            listings={data.page.items}
            ratings={data.ratings}
            inCart={inCart}
            redirectTo={data.redirectTo}
            empty={
              <ListingsEmpty
                searched={filtered || Boolean(data.filters.cursor)}
                none="No images are for sale yet."
              >
                <p className="mt-1 text-sm text-slate-600">
                  {filtered ? (
                    <Link to="/marketplace" className="text-brand-700 underline">
                      Clear the filters
                    </Link>
                  ) : (
                    "Creators list their styled selfies here. Check back soon."
                  )}
                </p>
              </ListingsEmpty>
            }
            pages={{
              path: "/marketplace",
              baseQuery: data.baseQuery,
              nextCursor: data.page.nextCursor,
              cursor: data.filters.cursor,
            }}
          />
        </div>
        <div className="lg:sticky lg:top-20 lg:self-start">
          <CartPanel items={cartItems} redirectTo={data.redirectTo} />
        </div>
      </div>
    </div>
  );
}

/** The cart as it will be once the cart forms in flight have landed (optimistic with JavaScript). */
function useOptimisticCart(
  cart: CartPanelItem[],
  shown: { id: string; title: string; style: string; priceCents: number; previewUrl: string }[],
): CartPanelItem[] {
  const fetchers = useFetchers();
  return useMemo(() => {
    let items = cart;
    for (const fetcher of fetchers) {
      if (!fetcher.formData || !fetcher.formAction?.startsWith("/cart")) continue;
      const intent = fetcher.formData.get("intent");
      const id = String(fetcher.formData.get("listingId") ?? "");
      if (intent === "remove")
        items = items.filter((item) => item.id !== id && (item.listingId ?? item.id) !== id);
      if (intent === "add" && !items.some((item) => item.id === id)) {
        const listing = shown.find((item) => item.id === id);
        if (listing) items = [...items, listing];
      }
    }
    return items;
  }, [cart, shown, fetchers]);
}

export function ErrorBoundary() {
  const error = useRouteError();
  return (
    <ErrorPanel
      title="Marketplace"
      detail={routeErrorMessage(error, "The marketplace could not be loaded. Please try again.")}
      linkTo="/marketplace"
      linkLabel="Back to the marketplace"
    />
  );
}
