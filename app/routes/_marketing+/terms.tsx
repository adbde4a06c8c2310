import type { MetaFunction } from "@remix-run/node";
import { Link, useRouteLoaderData } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import { LICENSE_NAME } from "~/lib/license-terms";
import { CREATOR_SHARE_PERCENT } from "~/features/payouts/types";
import { INFO_LINK, InfoPage, InfoSection } from "~/features/landing/components/info-page";
import type { loader as rootLoader } from "~/root";
import {
  refundPolicyText,
  useRefundWindowDays,
} from "~/features/market/checkout/components/refund-policy";

const PLATFORM_SHARE_PERCENT = 100 - CREATOR_SHARE_PERCENT;

export const meta: MetaFunction = () => [
  { title: `Terms of Service | ${PRODUCT_NAME}` },
  {
    name: "description",
    content: `The rules of ${PRODUCT_NAME}: what you may upload, the license buyers get, how refunds work and the ${CREATOR_SHARE_PERCENT}/${PLATFORM_SHARE_PERCENT} split of every sale.`,
  },
];

/** /terms: public; the platform's rules, the license in short, refunds (within REFUND_WINDOW_DAYS on request) and the split of a sale (from CREATOR_SHARE_PERCENT). */
export default function Terms() {
  const signedIn = Boolean(useRouteLoaderData<typeof rootLoader>("root")?.user);
  const refundDays = useRefundWindowDays();
  return (
    <InfoPage
      signedIn={signedIn}
      testId="terms-page"
      eyebrow={PRODUCT_NAME}
      title="Terms of Service"
      intro={
        <p>
          The rules for creators who sell on {PRODUCT_NAME} and for buyers who pay for their images.
        </p>
      }
    >
      <InfoSection id="uploads" title="What you may upload">
        <p>
          Upload only a photo of your own face, or of a person who has given you the right to use
          their photo and to sell images made from it. You confirm that right when you agree to face
          processing before your first style.
        </p>
        <p>
          No impersonation: do not upload someone else&apos;s face as your own, and do not present
          an image as showing, or endorsed by, a person who did not agree to it. Nothing unlawful,
          hateful or sexual.
        </p>
        <p>
          The admin may remove an image or suspend an account that breaks these rules. A suspended
          creator is paid nothing while the suspension lasts.
        </p>
      </InfoSection>

      <InfoSection id="license" title="The license buyers get">
        <p>
          Every image bought on the marketplace carries the {LICENSE_NAME}: the buyer may use it in
          personal and commercial projects, worldwide and without time limit, but may not resell or
          give away the file itself, use it in a logo or trademark, or use it to train
          machine-learning models. The creator keeps the copyright and may license the same image to
          others.
        </p>
        <p>
          <Link to="/license" className={INFO_LINK}>
            Read the full {LICENSE_NAME}
          </Link>
          .
        </p>
      </InfoSection>

      <InfoSection id="refunds" title="Refunds">
        <p data-testid="terms-refund-policy">
          {refundPolicyText(refundDays)}. Within {refundDays} {refundDays === 1 ? "day" : "days"} of
          paying, a buyer may ask for a refund of an order, with a reason, from their receipt or
          from their library (the link we email to the order&apos;s address; no account needed). The
          creator and the admin are told; the admin refunds the paid order in full or declines with
          a reason sent to the buyer by email. An order can be asked about once. After that time, or
          for anything else,{" "}
          <Link to="/contact" className={INFO_LINK}>
            contact us
          </Link>{" "}
          with the order&apos;s email address. The buyer gets a refund notice by email.
        </p>
        <p>
          When the card&apos;s issuer warns that a payment may be fraudulent, the order is refunded
          at once, in full, without a request.
        </p>
        <p>
          A refund ends the order: its download links stop working and its license is revoked (the
          license page says when). The creator&apos;s share of a refunded sale is taken back.
        </p>
      </InfoSection>

      <InfoSection id="split" title="How a sale is split">
        <p data-testid="terms-split">
          Of every sale, the creator keeps {CREATOR_SHARE_PERCENT}% and {PRODUCT_NAME} keeps{" "}
          {PLATFORM_SHARE_PERCENT}%. The creator&apos;s share is rounded to the cent and paid out to
          the payout account the creator sets up on the{" "}
          <Link to="/payouts" className={INFO_LINK}>
            Payouts
          </Link>{" "}
          page; until that account is ready the share is kept for them.
        </p>
        <p>
          Prices are set by the creator. Buyers pay through a card payment provider&apos;s hosted
          checkout; {PRODUCT_NAME} never sees card numbers. See the{" "}
          <Link to="/privacy" className={INFO_LINK}>
            Privacy Policy
          </Link>{" "}
          for what is stored and for how long.
        </p>
      </InfoSection>
    </InfoPage>
  );
}
