import type { MetaFunction } from "@remix-run/node";
import { Link, useRouteLoaderData } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import { CREATOR_SHARE_PERCENT } from "~/features/payouts/types";
import { INFO_LINK, InfoPage, InfoSection } from "~/features/landing/components/info-page";
import { PricingPlanList } from "~/features/landing/components/pricing-section";
import { PlatformStateList } from "~/features/publishing/components/platform-states";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction = () => [
  { title: `Pricing | ${PRODUCT_NAME}` },
  {
    name: "description",
    content: `Beta access is free and creators keep ${CREATOR_SHARE_PERCENT}% of every sale; paid plans arrive later.`,
  },
];

/** /pricing: public; the plans of app/features/landing/pricing-plans.ts and what a sale pays the creator. */
export default function Pricing() {
  const root = useRouteLoaderData<typeof rootLoader>("root");
  const signedIn = Boolean(root?.user);
  return (
    <InfoPage
      signedIn={signedIn}
      wide
      testId="pricing-page"
      eyebrow={PRODUCT_NAME}
      title="Pricing"
      intro={
        <p>
          Beta access is free: every feature, and you keep {CREATOR_SHARE_PERCENT}% of every sale.
          Regular and Premium are coming soon. Buyers pay only the price of each image.
        </p>
      }
    >
      <div className="mt-10">
        <PricingPlanList planHeadingLevel="h2" registrationOpen={root?.registrationOpen ?? false} />
      </div>
      <InfoSection id="sale" title="What a sale pays">
        <p>
          Of every sale the creator keeps {CREATOR_SHARE_PERCENT}% and {PRODUCT_NAME} keeps{" "}
          {100 - CREATOR_SHARE_PERCENT}% (see the{" "}
          <Link to="/terms#split" className={INFO_LINK}>
            terms
          </Link>
          ). Creators set their own prices.
        </p>
      </InfoSection>
      <InfoSection id="platforms" title="Where you can sell">
        <p>
          Our marketplace, and these platforms, each with what we do there (their own fees apply):
        </p>
        <PlatformStateList />
      </InfoSection>
    </InfoPage>
  );
}
