import type { MetaFunction } from "@remix-run/node";
import { Link, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { PRODUCT_NAME } from "~/lib/product";
import { LICENSE_NAME } from "~/lib/license-terms";
import { STYLES } from "~/lib/styles";
import { CREATOR_SHARE_PERCENT } from "~/features/payouts/types";
import { INFO_LINK, InfoPage, InfoSection } from "~/features/landing/components/info-page";
import { PlatformStateList } from "~/features/publishing/components/platform-states";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction = () => [
  { title: `Help Center | ${PRODUCT_NAME}` },
  {
    name: "description",
    content:
      "Answers to what buyers and creators ask first: buying, downloads, the license, refunds, uploading, styles, listing and payouts.",
  },
];

/** /help: public; the first questions of a buyer and of a creator, with links to the screens that answer them. */
export default function Help() {
  const signedIn = Boolean(useRouteLoaderData<typeof rootLoader>("root")?.user);
  return (
    <InfoPage
      signedIn={signedIn}
      testId="help-page"
      eyebrow="Support"
      title="Help Center"
      intro={
        <p>
          The questions buyers and creators ask first. Not answered here?{" "}
          <Link to="/contact" className={INFO_LINK}>
            Contact us
          </Link>
          .
        </p>
      }
    >
      <InfoSection id="buyers" title="For buyers">
        <Question title="How do I buy an image?">
          Open the{" "}
          <Link to="/marketplace" className={INFO_LINK}>
            Marketplace
          </Link>
          , add the images you want to the cart and check out with your name and email address. You
          pay by card on the payment provider&apos;s hosted checkout; no account is needed.
        </Question>
        <Question title="Where are my downloads?">
          When the payment is through, the purchase-complete window lists your downloads, and the
          receipt we email you links to your{" "}
          <Link to="/library" className={INFO_LINK}>
            library
          </Link>
          : every paid order of your email address, with a Download and a License link for each
          image. Lost the email? Ask for a new library link on the library page; it is valid for 24
          hours.
        </Question>
        <Question title="What may I do with an image I bought?">
          Every purchase carries the{" "}
          <Link to="/license" className={INFO_LINK}>
            {LICENSE_NAME}
          </Link>
          : personal and commercial use, worldwide and without time limit, edits allowed. You may
          not resell or give away the file itself, use it in a logo, or use it to train
          machine-learning models. Your order&apos;s own license page names you as the licensee.
        </Question>
        <Question title="Can I get a refund?">
          Yes:{" "}
          <Link to="/contact" className={INFO_LINK}>
            contact us
          </Link>{" "}
          from the email address you bought with. The admin refunds the paid order and you get a
          refund notice by email. A refund ends the order&apos;s downloads and its license. See the{" "}
          <Link to="/terms#refunds" className={INFO_LINK}>
            terms
          </Link>
          .
        </Question>
      </InfoSection>

      <InfoSection id="creators" title="For creators">
        <Question title="How do I upload a selfie?">
          Sign in and open your{" "}
          <Link to="/dashboard" className={INFO_LINK}>
            dashboard
          </Link>
          . Step 1, Upload, takes a JPG or PNG up to 10MB. Upload only your own face, or one you
          have the right to use.
        </Question>
        <Question title="Which styles are there?">
          Four: {STYLES.map((style) => style.name).join(", ")}. Pick one in Step 2, Style, and press
          Generate; before your first style you agree to face processing (see the{" "}
          <Link to="/privacy" className={INFO_LINK}>
            Privacy Policy
          </Link>
          ). Each result stays in your studio until you delete it.
        </Question>
        <Question title="How do I list an image for sale?">
          In Step 4, Market, choose List for Sale: give it a title and a price and pick where to
          list it (the Marketplace is always offered). Your{" "}
          <Link to="/listings" className={INFO_LINK}>
            listings
          </Link>{" "}
          page shows everything you have listed. To list on other platforms too, connect them on{" "}
          <Link to="/integrations" className={INFO_LINK}>
            Integrations
          </Link>
          .
        </Question>
        <div className="mt-5">
          <h3 className="font-semibold text-slate-900">Which other platforms can I list on?</h3>
          <p className="mt-1">
            Besides our marketplace, these, each with what we do there (connect them on{" "}
            <Link to="/integrations" className={INFO_LINK}>
              Integrations
            </Link>
            ):
          </p>
          <PlatformStateList />
        </div>
        <Question title="How do I get paid?">
          You keep {CREATOR_SHARE_PERCENT}% of every sale. Set up your payout account on the{" "}
          <Link to="/payouts" className={INFO_LINK}>
            Payouts
          </Link>{" "}
          page; each share is sent to it once it is ready, and shares earned before that wait for
          you. The page shows your balance and every transfer.
        </Question>
      </InfoSection>
    </InfoPage>
  );
}

function Question({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="mt-5">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      <p className="mt-1">{children}</p>
    </div>
  );
}
