import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/ui/page-header";
import { ListOnMarketplaceForm } from "~/features/market/catalog/components/list-on-marketplace-form";
import { MyListings } from "~/features/market/catalog/components/my-listings";
import { PRODUCT_NAME } from "~/lib/product";
import { safeRedirect } from "~/lib/safe-redirect";
import {
  listOnMarketplace,
  listingFormDefaults,
  myListings,
  withdrawMyListing,
} from "~/features/market/catalog/creator-listings.procedures.server";
import { redirectWithFlash } from "~/web/flash.server";
import { intent, loadProcedure, screenAction } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { SecondaryLink } from "~/ui/secondary-link";
import {
  createMyBundle,
  myBundles,
  withdrawMyBundle,
} from "~/features/market/bundles/procedures.server";
import { BundleForm } from "~/features/market/bundles/components/bundle-form";
import { MyBundles } from "~/features/market/bundles/components/my-bundles";

export const meta: MetaFunction = () => [{ title: `My listings | ${PRODUCT_NAME}` }];

/**
 * /listings (signed in): the creator's marketplace listings, and with
 * ?stylizedImageId=... the list-on-marketplace form for one image (the no-JS
 * page behind the form the dashboard embeds). POST intent list | withdraw;
 * Withdraw asks first (?confirmWithdraw=<id>), and only the confirmation posts.
 * Below the listings, the creator's bundles (intent withdraw-bundle) and the
 * form that makes one of their live listings (intent bundle).
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const stylizedImageId = new URL(args.request.url).searchParams.get("stylizedImageId");
  const form = stylizedImageId
    ? await loadProcedure(listingFormDefaults, args, { stylizedImageId }, user)
    : null;
  const listings = await loadProcedure(myListings, args, {}, user);
  const bundles = await loadProcedure(myBundles, args, {}, user);
  return json({ form, listings, bundles });
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  /** Where the form goes back to, and whether it was sent by the page's script (which wants JSON). */
  const backOf = ({ form }: { form: FormData }) => ({
    redirectTo: safeRedirect(form.get("redirectTo"), "/listings"),
    enhanced: form.get("enhanced") === "1",
  });
  const list = intent({
    procedure: listOnMarketplace,
    reply: "form",
    onSuccess: (done) => {
      const { redirectTo, enhanced } = backOf(done);
      const { listing, created } = done.result;
      const listingUrl = listing.platforms[0]?.url ?? null;
      if (enhanced) return json({ ok: true as const, created, listingUrl });
      return redirectWithFlash(redirectTo, {
        kind: "success",
        title: created ? "Listed on the marketplace" : "Listing updated",
        description: `"${listing.title}" is for sale at $${listing.price}.`,
      });
    },
  });
  return screenAction<
    | SubmissionResult<string[]>
    | { ok: true; withdrawn: string }
    | { ok: true; created: boolean; listingUrl: string | null }
  >(args, {
    user,
    intents: {
      list,
      withdraw: intent({
        procedure: withdrawMyListing,
        reply: "form",
        onSuccess: (done) => {
          const { redirectTo, enhanced } = backOf(done);
          if (enhanced) return json({ ok: true as const, withdrawn: done.result.id });
          return redirectWithFlash(redirectTo, {
            kind: "success",
            title: "Listing withdrawn",
            description: "It is no longer for sale.",
          });
        },
      }),
      bundle: intent({
        procedure: createMyBundle,
        reply: "form",
        onSuccess: () =>
          redirectWithFlash("/listings#your-bundles", {
            kind: "success",
            title: "Bundle made",
            description: "It is for sale on its own page and your storefront.",
          }),
      }),
      "withdraw-bundle": intent({
        procedure: withdrawMyBundle,
        reply: "form",
        onSuccess: () =>
          redirectWithFlash("/listings#your-bundles", {
            kind: "success",
            title: "Bundle withdrawn",
            description: "It is no longer for sale. Its listings stay for sale.",
          }),
      }),
    },
    // The list form posts no intent (it is the page's one form).
    unknownIntent: list,
  });
}

export default function Listings() {
  const { form, listings, bundles } = useLoaderData<typeof loader>();
  const live = listings.filter((listing) => listing.status === "active");
  const actionData = useActionData<typeof action>();
  // The bundle form's refusal (the list form's refusals are the list form's own).
  const bundleRefusal =
    actionData &&
    "status" in actionData &&
    actionData.status === "error" &&
    actionData.initialValue?.intent === "bundle"
      ? actionData
      : null;
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <PageHeader
        title={form ? "List on Marketplace" : "My Listings"}
        subtitle={
          form
            ? "Set the title, price and license of this image on the marketplace."
            : "Your images for sale on the marketplace."
        }
        actions={
          <>
            <SecondaryLink to="/dashboard">Back to Dashboard</SecondaryLink>
            <Link to="/discounts" className="btn-ghost">
              Discount codes
            </Link>
            <Link to="/marketplace" className="btn-ghost">
              Marketplace
            </Link>
          </>
        }
      />
      {form ? (
        <section className="card mt-6 grid gap-6 p-6 md:grid-cols-[12rem_1fr]">
          {form.imageUrl ? (
            <img
              src={form.imageUrl}
              alt="The styled image to list"
              className="max-h-72 w-48 self-start rounded-lg bg-slate-100 object-contain"
            />
          ) : null}
          {form.ready ? (
            <ListOnMarketplaceForm defaults={form} redirectTo="/listings" pageResult={actionData} />
          ) : (
            <p className="text-slate-700">
              This image is not ready yet. Once its style has been generated, you can list it.
            </p>
          )}
        </section>
      ) : null}
      <section className="mt-8" aria-labelledby="my-listings">
        <h2 id="my-listings" className="text-lg font-semibold text-slate-900">
          Listings
        </h2>
        {listings.length === 0 ? (
          <p className="mt-2 text-slate-600">
            Nothing listed yet. List a styled image from your{" "}
            <Link to="/dashboard" className="text-brand-700 underline">
              dashboard
            </Link>
            .
          </p>
        ) : (
          <MyListings listings={listings} />
        )}
      </section>
      <section className="mt-8 scroll-mt-24" id="your-bundles" aria-labelledby="bundles-heading">
        <h2 id="bundles-heading" className="text-lg font-semibold text-slate-900">
          Your bundles
        </h2>
        {bundles.length === 0 ? (
          <p className="mt-2 text-slate-600">No bundles yet.</p>
        ) : (
          <MyBundles bundles={bundles} />
        )}
        {live.length >= 2 ? (
          <div className="mt-4">
            <h3 className="mb-2 font-semibold text-slate-900">Make a bundle</h3>
            <BundleForm
              listings={live}
              errors={bundleRefusal?.error}
              sent={bundleRefusal?.initialValue}
            />
          </div>
        ) : null}
      </section>
    </div>
  );
}
