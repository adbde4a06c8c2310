import { PRODUCT_NAME } from "~/lib/product";
import { formatMoney } from "~/lib/money";
import {
  htmlButton,
  htmlParagraph,
  mailMessage,
  typedText,
  type MailMessage,
} from "~/features/mail/message-layout";
import { escapeHtml } from "~/lib/html";
import { FOLLOW_LINK_DAYS } from "./follow-types";

/**
 * A follow's messages: the link that confirms it (to the address someone
 * typed) and the digest of the creator's new listings. Both end with the
 * one-click way out that their List-Unsubscribe header names too. Plain text
 * and HTML, every value escaped; a creator's name is their own words, cut to
 * one line.
 */

const IGNORE =
  "If you did not ask to follow anyone, you can ignore this email: nothing is sent to you without this link.";

function stopLine(unsubscribeLink: string): { text: string[]; html: string } {
  const words = "To stop these emails and delete your address from this follow, open:";
  return {
    text: [words, unsubscribeLink],
    html: `<p style="margin:24px 0 0;font-size:14px;color:#475569">${escapeHtml(words)} <a href="${escapeHtml(unsubscribeLink)}" style="color:#4338ca;word-break:break-all">Unfollow</a></p>`,
  };
}

export function renderFollowConfirmMail(input: {
  creatorName: string;
  confirmLink: string;
  unsubscribeLink: string;
}): MailMessage {
  const subject = `Confirm that you follow a creator on ${PRODUCT_NAME}`;
  const asked = `Someone (we hope you) asked to follow ${typedText(input.creatorName, 60)} on ${PRODUCT_NAME} with this address.`;
  const confirm = `Open the link below and press Confirm within ${FOLLOW_LINK_DAYS} days: you then get at most one email a day, when they list new images.`;
  const stop = stopLine(input.unsubscribeLink);
  return mailMessage(
    subject,
    ["Hi,", "", asked, confirm, "", input.confirmLink, "", IGNORE, "", ...stop.text],
    [
      htmlParagraph("Hi,"),
      htmlParagraph(asked),
      htmlParagraph(confirm),
      htmlButton(input.confirmLink, "Confirm I follow"),
      htmlParagraph(IGNORE, "small"),
      stop.html,
    ],
  );
}

export interface DigestListing {
  title: string;
  priceCents: number;
  link: string;
}

export function renderFollowDigestMail(input: {
  creatorName: string;
  storefrontLink: string;
  listings: readonly DigestListing[];
  unsubscribeLink: string;
}): MailMessage {
  const name = typedText(input.creatorName, 60);
  const count = input.listings.length;
  const subject = `New on ${PRODUCT_NAME} from a creator you follow`;
  const intro = `${name} listed ${count === 1 ? "a new image" : `${count} new images`} since our last email:`;
  const lines = input.listings.map(
    (listing) => `${typedText(listing.title, 120)} (${formatMoney(listing.priceCents)})`,
  );
  const more = `All their images: ${input.storefrontLink}`;
  const stop = stopLine(input.unsubscribeLink);
  return mailMessage(
    subject,
    [
      "Hi,",
      "",
      intro,
      "",
      ...input.listings.flatMap((listing, n) => [`- ${lines[n]}`, `  ${listing.link}`]),
      "",
      more,
      "",
      ...stop.text,
    ],
    [
      htmlParagraph("Hi,"),
      htmlParagraph(intro),
      `<ul style="margin:0 0 16px;padding-left:20px">${input.listings
        .map(
          (listing, n) =>
            `<li style="margin:0 0 8px"><a href="${escapeHtml(listing.link)}" style="color:#4338ca">${escapeHtml(lines[n]!)}</a></li>`,
        )
        .join("")}</ul>`,
      htmlButton(input.storefrontLink, "See their storefront"),
      stop.html,
    ],
  );
}
