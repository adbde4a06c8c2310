import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/ui/page-header";
import { CartLines } from "~/features/market/checkout/components/cart-lines";
import { CheckoutForm } from "~/features/market/checkout/components/checkout-form";
import { PixelSize } from "~/features/market/catalog/components/pixel-size";
import { StyleBadge } from "~/features/market/catalog/components/style-badge";
import { MAX_CART_ITEMS } from "~/lib/limits";
import { formatMoney } from "~/lib/money";
import { PRODUCT_NAME } from "~/lib/product";
import { backToItem } from "~/lib/back-to-item";
import { checkout, countCartAdd, viewCart } from "~/features/market/checkout/procedures.server";
import { checkoutFormSchema } from "~/features/market/checkout/checkout-schema";
import {
  CART_ENTRY_PATTERN,
  addToCart,
  cartHeader,
  readCart,
  removeFromCart,
} from "~/web/cart.server";
import { listingCartEntry, listingOfEntry, parseCartEntry } from "~/lib/cart-entries";
import { isLicenseType, LICENSES } from "~/lib/license-terms";
import { redirectWithFlash } from "~/web/flash.server";
import { intent, loadProcedure, plainIntent, screenAction } from "~/web/screen-action.server";

export const meta: MetaFunction = () => [{ title: `Cart and checkout | ${PRODUCT_NAME}` }];

/** GET /cart: the cart and the checkout form as a plain page (the no-JS checkout "dialog"). */
export async function loader(args: LoaderFunctionArgs) {
  // Public: the cart belongs to the browser, not to an account.
  const ids = await readCart(args.request);
  const cart = await loadProcedure(viewCart, args, { listingIds: ids }, null);
  const headers = new Headers();
  if (cart.unavailable.length > 0)
    headers.append("Set-Cookie", await cartHeader(cart.items.map((item) => item.id)));
  return json(
    { items: cart.items, totalCents: cart.totalCents, unavailable: cart.unavailable.length },
    { headers },
  );
}

/**
 * POST /cart: intent add | remove (listingId: a listing's id, `<id>:<tier>`
 * or `bundle:<id>`; an add may name the licence tier in licenseType, and
 * replaces the listing's entry of another tier) changes the cart cookie (a listing's add also counts for its creator, once
 * per visitor and day);
 * intent checkout (name, email, company) starts the checkout from the cart and
 * redirects to the payment page. Forms posted without JavaScript come back to
 * `redirectTo`; fetcher posts (enhanced=1) get JSON and the page revalidates.
 */
export async function action(args: ActionFunctionArgs) {
  // Public, same-origin forms only.
  const { request } = args;
  const changeCart = (intent: "add" | "remove") =>
    plainIntent(async (formData) => {
      // The listing page's tier picker names the licence beside the listing (decision 101).
      const tier = formData.get("licenseType");
      const named = String(formData.get("listingId") ?? "");
      const listingId =
        intent === "add" && isLicenseType(tier) && CART_ENTRY_PATTERN.test(named)
          ? listingCartEntry(listingOfEntry(named) ?? named, tier)
          : named;
      if (!CART_ENTRY_PATTERN.test(listingId) || (tier && !isLicenseType(tier)))
        return json({ message: "Unknown cart action" }, { status: 400 });
      const before = await readCart(request);
      const after =
        intent === "add" ? addToCart(before, listingId) : removeFromCart(before, listingId);
      const full = intent === "add" && after === before && !before.includes(listingId);
      // The creator's analytics: an add counts once per visitor, listing and day.
      const counted = listingOfEntry(listingId);
      if (intent === "add" && !full && counted)
        await loadProcedure(countCartAdd, args, { listingId: counted });
      const headers = { "Set-Cookie": await cartHeader(after) };
      const added = intent === "add" && !full;
      // Without JavaScript, back to the same item (the page scrolls to #listing-<id>), saying it was added there.
      const redirectTo = backToItem(formData, added ? listingId : null);
      if (formData.get("enhanced") === "1") {
        return json(
          {
            ok: !full,
            count: after.length,
            added,
            message: full ? `Your cart holds at most ${MAX_CART_ITEMS} images.` : null,
          },
          { headers },
        );
      }
      if (full) {
        return redirectWithFlash(
          redirectTo,
          {
            kind: "error",
            title: "Cart full",
            description: `Your cart holds at most ${MAX_CART_ITEMS} images.`,
          },
          headers,
        );
      }
      return redirect(redirectTo, { headers });
    });
  const cart = await readCart(request);
  return screenAction(args, {
    user: null,
    unknownIntent: () => json({ message: "Unknown cart action" }, { status: 400 }),
    intents: {
      checkout: intent({
        procedure: checkout,
        fields: checkoutFormSchema,
        input: ({ discountCode, ...customerInfo }) => ({
          cartItems: cart.map((entry) => {
            const item = parseCartEntry(entry);
            return item.kind === "bundle"
              ? { bundleId: item.bundleId }
              : { imageId: item.listingId, licenseType: item.licenseType };
          }),
          customerInfo,
          discountCode,
        }),
        reply: "form",
        onSuccess: ({ result }) => redirect(result.url),
      }),
      add: changeCart("add"),
      remove: changeCart("remove"),
    },
  });
}

export default function CartPage() {
  const { items, totalCents, unavailable } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <PageHeader
        title="Checkout"
        subtitle="Your cart and your details. You pay on the next page."
        back={{ to: "/marketplace", label: "Back to Marketplace", look: "btn-ghost" }}
      />
      {unavailable > 0 ? (
        <p
          role="status"
          className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900"
        >
          {unavailable === 1 ? "An image" : "Some images"} in your cart{" "}
          {unavailable === 1 ? "is" : "are"} no longer for sale and{" "}
          {unavailable === 1 ? "was" : "were"} removed.
        </p>
      ) : null}
      <section className="card mt-6 p-6" aria-labelledby="cart-items-heading" data-testid="cart">
        <h2 id="cart-items-heading" className="text-lg font-semibold text-slate-900">
          Cart
        </h2>
        {items.length === 0 ? (
          <p className="mt-2 text-slate-600">
            Your cart is empty.{" "}
            <Link to="/marketplace" className="text-brand-700 underline">
              Browse the marketplace
            </Link>
          </p>
        ) : (
          <CartLines
            items={items}
            lineClassName="flex items-start gap-3 py-3 sm:gap-4"
            thumbnailSize={64}
            redirectTo="/cart"
            details={(item) =>
              item.bundle ? (
                <>
                  <p className="font-medium wrap-anywhere text-slate-900">
                    <Link to={item.bundle.path} className="hover:underline">
                      {item.title}
                    </Link>
                  </p>
                  <p className="text-sm text-slate-600">
                    Bundle of {item.bundle.itemCount} images by <bdi>{item.creatorFirstName}</bdi>
                  </p>
                  <p className="mt-1 flex flex-wrap items-baseline gap-x-2">
                    <span className="font-semibold text-slate-900" data-testid="cart-line-price">
                      {formatMoney(item.priceCents)}
                    </span>
                    <span className="text-sm text-slate-600 line-through">
                      {formatMoney(item.bundle.sumCents)}
                    </span>
                  </p>
                </>
              ) : (
                <>
                  <p className="font-medium wrap-anywhere text-slate-900">{item.title}</p>
                  <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
                    <StyleBadge style={item.style} />{" "}
                    <span className="min-w-0 wrap-anywhere">
                      by <bdi>{item.creatorFirstName}</bdi>
                    </span>
                  </p>
                  <p className="mt-1 flex flex-wrap items-baseline gap-x-2">
                    <span className="font-semibold text-slate-900" data-testid="cart-line-price">
                      {formatMoney(item.priceCents)}
                    </span>
                    <span className="text-sm text-slate-700" data-testid="cart-line-license">
                      {LICENSES[item.licenseType].tier} license
                    </span>
                    <PixelSize
                      width={item.width}
                      height={item.height}
                      className="text-sm text-slate-600"
                    />
                  </p>
                </>
              )
            }
          />
        )}
      </section>
      {items.length > 0 ? (
        <section className="card mt-6 p-6" aria-labelledby="checkout-heading">
          <h2 id="checkout-heading" className="mb-4 text-lg font-semibold text-slate-900">
            Your details
          </h2>
          <CheckoutForm
            itemCount={items.reduce((count, item) => count + (item.bundle?.itemCount ?? 1), 0)}
            totalCents={totalCents}
            pageResult={actionData}
          />
        </section>
      ) : null}
    </div>
  );
}
