import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { LicenseTermsList } from "~/features/market/orders/components/license-terms-list";
import { PRODUCT_NAME } from "~/lib/product";
import { styleName } from "~/lib/styles";
import { formatAmount } from "~/lib/money";
import { orderLicense } from "~/features/market/library/procedures.server";
import { loadProcedure } from "~/web/screen-action.server";
import { RouteErrorPanel, SOMETHING_WENT_WRONG, BACK_TO_MARKETPLACE } from "~/ui/error-panel";
import { forwardLoaderHeaders } from "~/web/route-headers.server";
import { longDate } from "~/lib/dates";
import { SecondaryLink } from "~/ui/secondary-link";

export const meta: MetaFunction = () => [
  { title: `License | ${PRODUCT_NAME}` },
  {
    name: "description",
    content: "The standard commercial license of an image bought on the marketplace.",
  },
];
export const headers = forwardLoaderHeaders;

/**
 * The license of a paid order, or the notice that it was revoked. Public: the
 * order's license id (random, given only to the buyer) is the key; an order id,
 * which creators also see, is not found here (docs/decisions/034).
 */
export async function loader(args: LoaderFunctionArgs) {
  const license = await loadProcedure(
    orderLicense,
    args,
    { licenseId: args.params.licenseId ?? "" },
    null,
  );
  // A certificate the buyer shows to others (docs/decisions/029): no robots ban, but never kept by a shared cache.
  return json(license, { headers: { "Cache-Control": "private, no-store" } });
}

export default function LicensePage() {
  const license = useLoaderData<typeof loader>();
  return (
    <article className="mx-auto max-w-3xl px-4 py-10" data-testid="license">
      <header className="border-b border-slate-200 pb-6">
        <p className="text-sm font-medium tracking-wide text-brand-700 uppercase">{PRODUCT_NAME}</p>
        <h1 className="mt-1 text-3xl font-bold text-slate-900">{license.licenseName}</h1>
        {license.testMode ? (
          <p className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm font-medium text-amber-800">
            TEST MODE: this order was paid in the built-in test checkout; no payment was taken.
          </p>
        ) : null}
        {license.revokedAt ? (
          <p
            role="alert"
            className="mt-3 rounded-md bg-red-50 px-3 py-2 text-sm font-medium text-red-800"
            data-testid="license-revoked"
          >
            This license was revoked on {longDate(license.revokedAt)} because the order was
            refunded. The images may no longer be used under it.
          </p>
        ) : null}
        {license.suspended ? (
          <p
            role="alert"
            className="mt-3 rounded-md bg-amber-50 px-3 py-2 text-sm font-medium text-amber-800"
            data-testid="license-suspended"
          >
            This license is suspended while a payment dispute on the order is open.
          </p>
        ) : null}
      </header>
      <dl className="mt-6 grid gap-4 sm:grid-cols-2">
        <Detail term="Order ID" value={license.orderId} mono />
        {/*
          Names and titles are typed by people, in any script: each sits in <bdi>, so a
          right-to-left one does not reorder the comma or the brackets around it.
        */}
        <Detail
          term="Licensee"
          value={
            license.buyer.company ? (
              <>
                <bdi>{license.buyer.name}</bdi>, <bdi>{license.buyer.company}</bdi>
              </>
            ) : (
              <bdi>{license.buyer.name}</bdi>
            )
          }
          testId="licensee"
        />
        <Detail term="Date of purchase" value={longDate(license.purchasedAt)} />
        <Detail
          term="Price paid"
          value={`${formatAmount(Number(license.total), license.currency)} ${license.currency.toUpperCase()}`}
        />
      </dl>
      <section className="mt-8" aria-labelledby="licensed-images">
        <h2 id="licensed-images" className="text-lg font-semibold text-slate-900">
          Licensed {license.items.length === 1 ? "image" : "images"}
        </h2>
        <ul className="mt-2 divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
          {license.items.map((item) => (
            <li
              key={item.listingId}
              className="flex flex-wrap items-center justify-between gap-2 px-4 py-3"
            >
              <span className="min-w-0 wrap-anywhere">
                <bdi className="font-medium text-slate-900" data-testid="licensed-title">
                  {item.title}
                </bdi>{" "}
                <span className="text-sm text-slate-600">
                  ({styleName(item.style)} style, by{" "}
                  <bdi data-testid="licensed-creator">{item.creatorFirstName}</bdi>)
                </span>
              </span>
              <span className="flex items-baseline gap-3">
                <span className="text-sm text-slate-700" data-testid="licensed-tier">
                  {item.licenseName}
                </span>
                <span className="font-semibold">${Number(item.price).toFixed(2)}</span>
              </span>
            </li>
          ))}
        </ul>
      </section>
      <section className="mt-8 space-y-4" aria-labelledby="license-terms">
        <h2 id="license-terms" className="text-lg font-semibold text-slate-900">
          Terms
        </h2>
        {license.licenses.length === 1 ? (
          <LicenseTermsList headingLevel="h3" terms={license.licenses[0].terms} />
        ) : (
          license.licenses.map((each) => (
            <section key={each.edition} className="space-y-4" data-testid="license-edition">
              <h3 className="font-semibold text-slate-900">{each.name}</h3>
              <LicenseTermsList headingLevel="h4" terms={each.terms} />
            </section>
          ))
        )}
        {license.licenses.some((each) => each.edition === "original") ? (
          <p className="text-sm text-slate-600" data-testid="original-terms-note">
            Bought before licenses came in tiers (November 30, 2026): these are the terms it was
            sold with.
          </p>
        ) : null}
      </section>
      <div className="mt-10 flex gap-2 print:hidden">
        <SecondaryLink to="/marketplace">Back to Marketplace</SecondaryLink>
      </div>
    </article>
  );
}

function Detail({
  term,
  value,
  mono,
  testId,
}: {
  term: string;
  value: ReactNode;
  mono?: boolean;
  testId?: string;
}) {
  return (
    <div
      className="rounded-xl border border-slate-200 bg-white p-4 wrap-anywhere"
      data-testid={testId}
    >
      <dt className="text-sm text-slate-600">{term}</dt>
      <dd
        className={`mt-1 font-medium break-all text-slate-900 ${mono ? "font-mono text-sm" : ""}`}
      >
        {value}
      </dd>
    </div>
  );
}

export function ErrorBoundary() {
  return (
    <RouteErrorPanel
      notFound={{
        title: "License not found",
        detail:
          "There is no license at this address. License links sent before November 26, 2026 no longer work: your library has the current link to each of your licenses.",
        linkTo: "/library",
        linkLabel: "Open your library",
      }}
      otherwise={{
        ...SOMETHING_WENT_WRONG,
        ...BACK_TO_MARKETPLACE,
      }}
    />
  );
}
