import { PRODUCT_NAME } from "~/lib/product";
import {
  htmlButton,
  htmlParagraph,
  mailMessage,
  typedText,
  type MailMessage,
} from "~/features/mail/message-layout";
import type { PublicationLeftUp } from "~/features/publishing/public.server";
import { REPORT_DUE_HOURS, REPORT_REASON_LABELS, type ReportReasonId } from "./report-types";

/**
 * The reports' messages: the link that confirms a report (to the address the
 * reporter typed), the decision told to the reporter, and a removal told to
 * the creator. Plain text and HTML, every value escaped; what a stranger typed
 * (the details) is never repeated to anyone.
 */

const IGNORE =
  "If you did not send a report, you can ignore this email: nothing happens without this link.";

export function renderReportConfirmMail(input: { link: string; target: string }): MailMessage {
  const subject = `Confirm your report to ${PRODUCT_NAME}`;
  const asked = `Someone (we hope you) reported ${typedText(input.target, 120)} to ${PRODUCT_NAME} with this address.`;
  const confirm = `Open the link below and press Confirm report: the report is then looked at within ${REPORT_DUE_HOURS} hours.`;
  return mailMessage(
    subject,
    ["Hi,", "", asked, confirm, "", input.link, "", IGNORE],
    [
      htmlParagraph("Hi,"),
      htmlParagraph(asked),
      htmlParagraph(confirm),
      htmlButton(input.link, "Confirm my report"),
      htmlParagraph(IGNORE, "small"),
    ],
  );
}

export function renderReportDecisionMail(input: {
  decision: "remove" | "dismiss";
  target: string;
  note: string;
}): MailMessage {
  const subject =
    input.decision === "remove"
      ? `Your report to ${PRODUCT_NAME}: removed`
      : `Your report to ${PRODUCT_NAME}: not removed`;
  const outcome =
    input.decision === "remove"
      ? `We looked at your report of ${typedText(input.target, 120)} and removed it from ${PRODUCT_NAME}.`
      : `We looked at your report of ${typedText(input.target, 120)} and did not remove it.`;
  const note = `Our note: ${typedText(input.note, 500)}`;
  return mailMessage(
    subject,
    ["Hi,", "", outcome, note],
    [htmlParagraph("Hi,"), htmlParagraph(outcome), htmlParagraph(note)],
  );
}

export function renderListingRemovedMail(input: {
  target: string;
  reason: ReportReasonId;
  note: string;
  leftUp: readonly PublicationLeftUp[];
  suspended: boolean;
}): MailMessage {
  const subject = `Removed from ${PRODUCT_NAME} after a report`;
  const removed = `After a report (${REPORT_REASON_LABELS[input.reason]}), we removed ${typedText(input.target, 120)} from ${PRODUCT_NAME}: it is withdrawn from the marketplace and your storefront. Copies already sold stay with their buyers.`;
  const note = `Our note: ${typedText(input.note, 500)}`;
  const left = input.leftUp.map(
    (place) => `${place.name}${place.url ? ` (${place.url})` : ""}: ${place.what}.`,
  );
  const leftIntro =
    left.length > 0
      ? "We could not take it down everywhere it was published; please do it yourself:"
      : "";
  const suspended = input.suspended
    ? "Your account is suspended: too many of the reports about your images were upheld."
    : "";
  return mailMessage(
    subject,
    [
      "Hi,",
      "",
      removed,
      note,
      ...(leftIntro ? ["", leftIntro, ...left.map((line) => `- ${line}`)] : []),
      ...(suspended ? ["", suspended] : []),
    ],
    [
      htmlParagraph("Hi,"),
      htmlParagraph(removed),
      htmlParagraph(note),
      leftIntro ? htmlParagraph(leftIntro) : "",
      ...left.map((line) => htmlParagraph(`• ${line}`)),
      suspended ? htmlParagraph(suspended, "notice") : "",
    ],
  );
}
