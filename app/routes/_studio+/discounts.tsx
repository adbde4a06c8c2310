import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import type { SubmissionResult } from "@conform-to/react";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/ui/page-header";
import { SecondaryLink } from "~/ui/secondary-link";
import { PRODUCT_NAME } from "~/lib/product";
import { myListings } from "~/features/market/catalog/creator-listings.procedures.server";
import {
  createMyDiscount,
  deleteMyDiscount,
  myDiscounts,
} from "~/features/market/discounts/procedures.server";
import { DiscountForm } from "~/features/market/discounts/components/discount-form";
import { MyDiscounts, discountAmount } from "~/features/market/discounts/components/my-discounts";
import { redirectWithFlash } from "~/web/flash.server";
import { intent, loadProcedure, screenAction } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";

export const meta: MetaFunction = () => [{ title: `Discounts | ${PRODUCT_NAME}` }];

/**
 * /discounts (signed in): the creator's discount codes and the form that
 * makes one. POST intent create | delete, plain forms (POST, then back here).
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const discounts = await loadProcedure(myDiscounts, args, {}, user);
  const listings = await loadProcedure(myListings, args, {}, user);
  return json({
    discounts,
    listings: listings
      .filter((listing) => listing.status === "active")
      .map((listing) => ({ id: listing.id, title: listing.title, price: listing.price })),
    titles: Object.fromEntries(listings.map((listing) => [listing.id, listing.title])),
  });
}

export async function action(args: ActionFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  return screenAction<SubmissionResult<string[]>>(args, {
    user,
    intents: {
      create: intent({
        procedure: createMyDiscount,
        reply: "form",
        onSuccess: (done) =>
          redirectWithFlash("/discounts", {
            kind: "success",
            title: "Discount code made",
            description: `${done.result.code}: ${discountAmount(done.result)}. Buyers type it at the cart.`,
          }),
      }),
      delete: intent({
        procedure: deleteMyDiscount,
        reply: "form",
        onSuccess: () =>
          redirectWithFlash("/discounts", {
            kind: "success",
            title: "Discount code deleted",
            description: "Buyers can no longer use it. Orders that did keep their prices.",
          }),
      }),
    },
    unknownIntent: () =>
      redirectWithFlash("/discounts", { kind: "error", title: "Unknown action" }),
  });
}

export default function Discounts() {
  const { discounts, listings, titles } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const refusal =
    actionData && "status" in actionData && actionData.status === "error" ? actionData : null;
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <PageHeader
        title="Discounts"
        subtitle="Codes buyers type at the cart to pay less for your images."
        actions={<SecondaryLink to="/listings">My listings</SecondaryLink>}
      />
      <section className="mt-8" aria-labelledby="codes-heading">
        <h2 id="codes-heading" className="text-lg font-semibold text-slate-900">
          Your codes
        </h2>
        {discounts.length === 0 ? (
          <p className="mt-2 text-slate-600">No discount codes yet.</p>
        ) : (
          <MyDiscounts
            discounts={discounts}
            titleOf={(id) => titles[id] ?? "a withdrawn listing"}
          />
        )}
      </section>
      <section className="mt-8" aria-labelledby="make-code-heading">
        <h2 id="make-code-heading" className="mb-2 text-lg font-semibold text-slate-900">
          Make a code
        </h2>
        <p className="mb-3 text-sm text-slate-700">
          A code takes money off only your own images in a buyer&apos;s cart. Your share and the
          platform&apos;s fee are worked out on the price after the discount.
        </p>
        <DiscountForm listings={listings} errors={refusal?.error} sent={refusal?.initialValue} />
      </section>
    </div>
  );
}
