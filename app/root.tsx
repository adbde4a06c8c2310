import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useLocation,
  useNavigation,
  useRouteError,
  useRouteLoaderData,
} from "@remix-run/react";
import type { ReactNode } from "react";
import stylesheet from "~/tailwind.css";
import { ErrorPanel } from "~/ui/error-panel";
import { NavigationProgress } from "~/ui/navigation-progress";
import { useNonce } from "~/ui/nonce";
import { SiteNav } from "~/ui/site-nav";
import { ToastProvider } from "~/ui/toaster";
import { PRODUCT_NAME } from "~/lib/product";
import { takeFlash } from "~/web/flash.server";
import { signInOptions } from "~/features/accounts/sessions/procedures.server";
import { toPublicUser } from "~/features/accounts/public.server";
import { getConfig } from "~/infra/config.server";
import { loadProcedure } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { CurrencyProvider } from "~/ui/currency";
import { DemoFiguresProvider } from "~/ui/demo-figures";

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
  return json(
    {
      user: user ? toPublicUser(user) : null,
      flash,
      registrationOpen,
      currency: getConfig().CURRENCY,
      // The spec's cosmetic figures (labelled) for the demo; off on a live store.
      demoFigures: getConfig().DEMO_FIGURES === "on",
    },
    clear ? { headers: { "Set-Cookie": clear } } : undefined,
  );
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const data = useRouteLoaderData<typeof loader>("root");
  const location = useLocation();
  const navigation = useNavigation();
  return (
    <html lang="en" className="h-full">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-full flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:top-2 focus:left-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
        >
          Skip to content
        </a>
        <NavigationProgress />
        <ToastProvider
          flash={data?.flash ?? null}
          page={location.pathname}
          submitting={navigation.state === "submitting"}
        >
          <SiteNav user={data?.user ?? null} registrationOpen={data?.registrationOpen ?? false} />
          <main id="main" className="flex-1">
            <CurrencyProvider currency={data?.currency ?? "usd"}>
              <DemoFiguresProvider on={data?.demoFigures ?? false}>{children}</DemoFiguresProvider>
            </CurrencyProvider>
          </main>
        </ToastProvider>
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

export function ErrorPage({ error }: { error: unknown }) {
  let title = "Something went wrong";
  let detail = "An unexpected error occurred. Please try again.";
  if (isRouteErrorResponse(error)) {
    if (error.status === 404) {
      title = "Page Not Found";
      detail = "The page you are looking for does not exist or has moved.";
    } else if (error.status === 403) {
      title = "Access Denied";
      detail = "You don't have permission to view this page.";
    } else {
      title = `${error.status} ${error.statusText || "Error"}`;
      detail = typeof error.data?.message === "string" ? error.data.message : detail;
    }
  }
  return <ErrorPanel title={title} detail={detail} />;
}
