import type { MetaFunction } from "@remix-run/node";
import { Link, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { PRODUCT_NAME } from "~/lib/product";
import { DEFAULT_PRICE, STYLES, suggestedPrice } from "~/lib/styles";
import { CREATOR_SHARE_PERCENT } from "~/features/payouts/types";
import { INFO_LINK, InfoPage } from "~/features/landing/components/info-page";
import type { loader as rootLoader } from "~/root";
import { NumberedTitle } from "~/ui/numbered-title";

export const meta: MetaFunction = () => [
  { title: `Creator Guide | ${PRODUCT_NAME}` },
  {
    name: "description",
    content: "From selfie to sale in five steps: upload, style, optimize, list and get paid.",
  },
];

/** /creator-guide: public; the five steps from a selfie to a sale, each linking to the screen where it happens. */
export default function CreatorGuide() {
  const signedIn = Boolean(useRouteLoaderData<typeof rootLoader>("root")?.user);
  return (
    <InfoPage
      signedIn={signedIn}
      testId="creator-guide-page"
      eyebrow="Creator Guide"
      title="From selfie to sale"
      intro={
        <p>
          Five steps, all on your{" "}
          <Link to="/dashboard" className={INFO_LINK}>
            dashboard
          </Link>{" "}
          except the last. For tips on what sells, read{" "}
          <Link to="/training" className={INFO_LINK}>
            Earning tips
          </Link>
          .
        </p>
      }
    >
      <ol className="mt-8 space-y-6">
        <Step number={1} id="upload" title="Upload a selfie">
          On the{" "}
          <Link to="/dashboard" className={INFO_LINK}>
            dashboard
          </Link>
          , drop a JPG or PNG up to 10MB on Step 1, Upload. Use your own face, or one you have the
          right to use (see the{" "}
          <Link to="/terms#uploads" className={INFO_LINK}>
            rules
          </Link>
          ). Face the light and keep the background plain.
        </Step>
        <Step number={2} id="style" title="Choose a style">
          Step 2 offers {STYLES.map((style) => style.name).join(", ")}. The first time, agree to
          face processing (you can withdraw it in{" "}
          <Link to="/settings/privacy" className={INFO_LINK}>
            Settings
          </Link>
          ), then press Generate and watch the card&apos;s progress.
        </Step>
        <Step number={3} id="optimize" title="Optimize">
          Step 3 makes your own download and a file sized for external platforms, with a preset, a
          format and an optional watermark. Buyers on the Marketplace get the styled image itself,
          so you can skip this step with Market Now.
        </Step>
        <Step number={4} id="list" title="List it for sale">
          In Step 4, Market, choose List for Sale: a title, a price and where to list it. Suggested
          prices: professional ${suggestedPrice("professional")}, fantasy $
          {suggestedPrice("fantasy")}, anime ${suggestedPrice("anime")}, cartoon $
          {suggestedPrice("cartoon")} (an image without a price sells for ${DEFAULT_PRICE}). Your{" "}
          <Link to="/listings" className={INFO_LINK}>
            listings
          </Link>{" "}
          show what is for sale; connect other platforms on{" "}
          <Link to="/integrations" className={INFO_LINK}>
            Integrations
          </Link>
          .
        </Step>
        <Step number={5} id="payouts" title="Get paid">
          Set up your payout account on{" "}
          <Link to="/payouts" className={INFO_LINK}>
            Payouts
          </Link>
          . You keep {CREATOR_SHARE_PERCENT}% of every sale; each share is sent to your account once
          it is ready, and the page shows your balance and every transfer.
        </Step>
      </ol>
    </InfoPage>
  );
}

function Step({
  number,
  id,
  title,
  children,
}: {
  number: number;
  id: string;
  title: string;
  children: ReactNode;
}) {
  return (
    <li id={id} className="card scroll-mt-20 p-6" data-testid={`step-${id}`}>
      <NumberedTitle number={number} title={title} keepBadgeWidth />
      <p className="mt-3 text-sm leading-6 text-slate-600">{children}</p>
    </li>
  );
}
