import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useLoaderData, useRouteLoaderData } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import { supportContact } from "~/features/landing/procedures/landing.server";
import { loadProcedure } from "~/web/screen-action.server";
import { INFO_LINK, InfoPage, InfoSection } from "~/features/landing/components/info-page";
import type { loader as rootLoader } from "~/root";

export const meta: MetaFunction = () => [
  { title: `Contact | ${PRODUCT_NAME}` },
  {
    name: "description",
    content: `How to reach ${PRODUCT_NAME} for help with an order, a refund, an account or a listing.`,
  },
];

/** /contact: public; the support address from SUPPORT_EMAIL (ADMIN_EMAIL without it). */
export async function loader(args: LoaderFunctionArgs) {
  return json(await loadProcedure(supportContact, args, {}, null));
}

export default function Contact() {
  const { email, privacyEmail } = useLoaderData<typeof loader>();
  const signedIn = Boolean(useRouteLoaderData<typeof rootLoader>("root")?.user);
  return (
    <InfoPage
      signedIn={signedIn}
      testId="contact-page"
      eyebrow="Support"
      title="Contact us"
      intro={
        <p>
          Write to us about an order, a refund, your account or a listing. A person reads every
          message.
        </p>
      }
    >
      <InfoSection id="email" title="Email">
        <p className="text-lg">
          <a href={`mailto:${email}`} className={INFO_LINK} data-testid="support-email">
            {email}
          </a>
        </p>
        <p>
          About an order, write from the email address you gave at checkout and say which image it
          is about, so we can find it. Never send a card number or a password.
        </p>
      </InfoSection>
      <InfoSection id="first" title="Before you write">
        <p>
          Most answers are on the{" "}
          <Link to="/help" className={INFO_LINK}>
            Help Center
          </Link>
          : where your downloads are, what the license allows, how refunds and payouts work.
          Creators starting out will find the steps in the{" "}
          <Link to="/creator-guide" className={INFO_LINK}>
            Creator Guide
          </Link>
          .
        </p>
      </InfoSection>
      <InfoSection id="your-data" title="Your data">
        <p>
          To see, correct or delete what we hold about you, or to object to its use, write to{" "}
          <a href={`mailto:${privacyEmail}`} className={INFO_LINK} data-testid="privacy-email">
            {privacyEmail}
          </a>
          , also if you bought without an account (write from the address you gave at checkout). The{" "}
          <Link to="/privacy" className={INFO_LINK}>
            privacy notice
          </Link>{" "}
          says who is responsible for your data and what your rights are.
        </p>
      </InfoSection>
    </InfoPage>
  );
}
