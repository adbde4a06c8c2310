import type { MetaFunction } from "@remix-run/node";
import { LICENSE_NAME } from "~/lib/license-terms";
import { LicenseTermsList } from "~/features/market/orders/components/license-terms-list";
import { PRODUCT_NAME } from "~/lib/product";
import { SecondaryLink } from "~/ui/secondary-link";

export const meta: MetaFunction = () => [{ title: `${LICENSE_NAME} | ${PRODUCT_NAME}` }];

/**
 * /license: the standard terms on their own (public), for links that must
 * not expire, such as the license URL in an NFT mint kit's metadata. A paid
 * order's own license, with its particulars, is /licenses/{licenseId}.
 */
export default function StandardLicense() {
  return (
    <article className="mx-auto max-w-3xl px-4 py-10" data-testid="standard-license">
      <header className="border-b border-slate-200 pb-6">
        <p className="text-sm font-medium tracking-wide text-brand-700 uppercase">{PRODUCT_NAME}</p>
        <h1 className="mt-1 text-3xl font-bold text-slate-900">{LICENSE_NAME}</h1>
        <p className="mt-2 text-slate-600">
          The terms every image bought on {PRODUCT_NAME} carries. The licensee is the buyer named on
          their order&apos;s license.
        </p>
      </header>
      <section className="mt-8 space-y-4" aria-label="Terms">
        <LicenseTermsList headingLevel="h2" />
      </section>
      <div className="mt-10">
        <SecondaryLink to="/marketplace">Back to Marketplace</SecondaryLink>
      </div>
    </article>
  );
}
