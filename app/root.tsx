import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useMatches,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import stylesheet from "~/tailwind.css";
import { ErrorPage } from "~/ui/error-panel";
import { useNonce } from "~/ui/nonce";
import { SiteShell } from "~/ui/site-shell";
import { PRODUCT_NAME } from "~/lib/product";
import { takeFlash } from "~/web/flash.server";
import { readCart } from "~/web/cart.server";
import { readSaved } from "~/web/saved-listings.server";
import { signInOptions } from "~/features/accounts/sessions/procedures.server";
import { viewCart } from "~/features/market/checkout/procedures.server";
import { toPublicUser } from "~/features/accounts/public.server";
import { getConfig } from "~/infra/config.server";
import { loadProcedure } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { CurrencyProvider } from "~/ui/currency";
import { RefundPolicyProvider } from "~/features/market/checkout/components/refund-policy";
import { DemoFiguresProvider } from "~/ui/demo-figures";
import { BuyerListsProvider } from "~/ui/buyer-lists";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: stylesheet },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export const meta: MetaFunction = () => [
  { title: PRODUCT_NAME },
  { name: "description", content: "Transform your selfies into AI art and earn money" },
];

export async function loader(args: LoaderFunctionArgs) {
  const { request } = args;
  const user = await requireScreenUser(request, { access: "optional" });
  const { flash, clear } = await takeFlash(request);
  // What the sign-up links and copy follow (the nav's Get Started, the landing, the admin's Create User).
  const { registrationOpen } = await loadProcedure(signInOptions, args, {}, null);
  // The header's counts: the cart's listings still for sale (as the cart shows them), and every saved one.
  const cartIds = await readCart(request);
  const cart =
    cartIds.length > 0
      ? (await loadProcedure(viewCart, args, { listingIds: cartIds }, null)).items.map(
          (item) => item.id,
        )
      : [];
  return json(
    {
      user: user ? toPublicUser(user) : null,
      flash,
      registrationOpen,
      cart,
      saved: await readSaved(request),
      currency: getConfig().CURRENCY,
      // The refund policy the checkout and /terms state.
      refundWindowDays: getConfig().REFUND_WINDOW_DAYS,
      // The spec's cosmetic figures (labelled) for the demo; off on a live store.
      demoFigures: getConfig().DEMO_FIGURES === "on",
    },
    clear ? { headers: { "Set-Cookie": clear } } : undefined,
  );
}

const NO_IDS: string[] = [];

/**
 * The cart as the page itself answers it (`cartIds` in its data), when it does:
 * a page that changes the cart while it loads (the marketplace empties a paid
 * cart) knows it better than the root, which read the cookie at the same time.
 */
function usePageCart(): string[] | undefined {
  const matches = useMatches();
  for (let i = matches.length - 1; i >= 0; i -= 1) {
    const ids = (matches[i]!.data as { cartIds?: unknown } | null | undefined)?.cartIds;
    if (Array.isArray(ids)) return ids as string[];
  }
  return undefined;
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  const cart = usePageCart() ?? data?.cart ?? NO_IDS;
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-full flex-col">
        <BuyerListsProvider cart={cart} saved={data?.saved ?? NO_IDS}>
          <SiteShell
            user={data?.user ?? null}
            registrationOpen={data?.registrationOpen ?? false}
            flash={data?.flash ?? null}
          >
            <CurrencyProvider currency={data?.currency ?? "usd"}>
              <RefundPolicyProvider days={data?.refundWindowDays ?? 14}>
                <DemoFiguresProvider on={data?.demoFigures ?? false}>
                  {children}
                </DemoFiguresProvider>
              </RefundPolicyProvider>
            </CurrencyProvider>
          </SiteShell>
        </BuyerListsProvider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  useLoaderData<typeof loader>();
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  return <ErrorPage error={error} />;
}
