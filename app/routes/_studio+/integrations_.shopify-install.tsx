import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData, useNavigation } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import {
  claimShopifyInstallation,
  waitingShopifyInstallation,
} from "~/features/publishing/shopify/installs.procedures.server";
import { COPY } from "~/features/publishing/types";
import { flashRefusal, loadProcedure, screenCall } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { redirectWithFlash } from "~/web/flash.server";
import { clearInstallClaimHeader, readInstallClaim } from "~/web/shopify-install-cookies.server";
import { BackAndSubmit } from "~/ui/back-and-submit";
import { SecondaryLink } from "~/ui/secondary-link";

export const meta: MetaFunction = () => [
  { title: `Connect your Shopify store | ${PRODUCT_NAME}` },
  { name: "robots", content: "noindex" },
];

const PATH = "/integrations/shopify-install";

/**
 * /integrations/shopify-install: where an install from a store's Shopify admin
 * that nobody was signed in for lands (after sign-in or registration): it
 * names the store waiting for this browser's creator. The GET changes
 * nothing; the Connect button's POST claims the store.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const claimToken = await readInstallClaim(args.request);
  const waiting = claimToken
    ? await loadProcedure(waitingShopifyInstallation, args, { claimToken }, user)
    : null;
  return json(
    { shop: waiting?.shop ?? null },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user", back: PATH });
  const claimToken = (await readInstallClaim(args.request)) ?? "";
  return screenCall(args, {
    procedure: claimShopifyInstallation,
    input: { claimToken },
    user,
    onSuccess: async ({ result }) =>
      redirectWithFlash(
        "/integrations#shopify",
        {
          kind: "success",
          ...COPY.connectionComplete,
          description: `${result.shop} is connected.`,
        },
        { "Set-Cookie": await clearInstallClaimHeader() },
      ),
    reply: flashRefusal(PATH, (refusal) => ({
      kind: "error",
      ...COPY.connectionFailed,
      description: refusal.message,
    })),
  });
}

export default function ShopifyInstallClaim() {
  const { shop } = useLoaderData<typeof loader>();
  const busy = useNavigation().state !== "idle";
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <h1 className="text-3xl font-bold text-slate-900">Connect your Shopify store</h1>
      {shop ? (
        <>
          <p className="mt-3 text-slate-600" data-testid="waiting-store">
            <span className="font-semibold break-all">{shop}</span> installed {PRODUCT_NAME} and is
            waiting to be connected to your account. Once connected, you can list your images for
            sale there.
          </p>
          <BackAndSubmit
            className="mt-8 flex flex-wrap justify-center gap-2"
            backTo="/integrations"
            backLabel="Not now"
            pending={busy}
            label={`Connect ${shop}`}
            pendingLabel="Connecting..."
            testId="claim-shopify-store"
          />
        </>
      ) : (
        <>
          <p className="mt-3 text-slate-600" data-testid="no-waiting-store">
            No Shopify store is waiting to be connected here: an installation waits for an hour, in
            the browser it was made in. Open {PRODUCT_NAME} again from your Shopify admin to start
            over, or connect your store from Integrations.
          </p>
          <div className="mt-8">
            <SecondaryLink to="/integrations">Back to Integrations</SecondaryLink>
          </div>
        </>
      )}
    </section>
  );
}
