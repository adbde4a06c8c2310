import { escapeHtml } from "~/lib/html";
import { PRODUCT_NAME } from "~/lib/product";

/**
 * The look every message's HTML part shares, for the templates in the
 * features that send mail (receipts, notices, links). Values go through
 * escapeHtml (app/lib/html.ts); amounts through formatMoney (app/lib/money.ts).
 */

/** A readable date in UTC: "November 24, 2026". */
export function formatDay(iso: string): string {
  return new Date(iso).toLocaleDateString("en-US", {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
  });
}

/**
 * A simple, accessible HTML message: a language, a title, one column of
 * readable text. `body` is HTML that the caller has already escaped.
 */
export function htmlMessage(title: string, body: string): string {
  return [
    "<!doctype html>",
    '<html lang="en">',
    "<head>",
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    "</head>",
    '<body style="margin:0;padding:24px;background:#ffffff;color:#0f172a;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5">',
    '<main style="max-width:560px;margin:0 auto">',
    `<p style="margin:0 0 16px;font-weight:bold;color:#4338ca">${escapeHtml(PRODUCT_NAME)}</p>`,
    body,
    "</main>",
    "</body>",
    "</html>",
  ].join("\n");
}

/** How much of a name someone else typed (a buyer's, at checkout) a message repeats. */
export const TYPED_NAME_MAX_CHARS = 40;

/**
 * Text a stranger chose (the name typed at checkout), made fit to repeat in a
 * message: control characters, line breaks and runs of blanks become one
 * space, so it stays on its line of the plain-text part, and it is cut to
 * `max` characters (an ellipsis marks the cut). The HTML part still escapes it.
 * Such text never goes into a subject.
 */
export function typedText(value: string, max = TYPED_NAME_MAX_CHARS): string {
  const flat = value
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\s]+/g, " ")
    .trim();
  const chars = [...flat];
  return chars.length <= max
    ? flat
    : `${chars
        .slice(0, max - 1)
        .join("")
        .trimEnd()}…`;
}

/** A message as the mail queue takes it: its subject, its plain-text part and its HTML part. */
export interface MailMessage {
  subject: string;
  text: string;
  html: string;
}

/**
 * One message from its two parts, the builder every template uses: the
 * plain-text lines (a blank line and the product's name sign them off) and the
 * pieces of the HTML body (already escaped; empty ones are left out), laid out
 * by htmlMessage under the subject as its title.
 */
export function mailMessage(
  subject: string,
  textLines: readonly string[],
  htmlPieces: readonly string[],
): MailMessage {
  return {
    subject,
    text: [...textLines, "", PRODUCT_NAME, ""].join("\n"),
    html: htmlMessage(subject, htmlPieces.filter(Boolean).join("\n")),
  };
}

/** The looks of a paragraph: the client's own spacing, the receipts' and notices' spacing, quieter small print (a link's validity, a note), a highlighted warning (a test-checkout notice). */
const PARAGRAPH_STYLES = {
  plain: "",
  spaced: "margin:0 0 16px",
  small: "margin:0 0 16px;font-size:14px;color:#475569",
  notice: "margin:0 0 16px;padding:8px 12px;background:#fffbeb;color:#92400e;font-weight:bold",
} as const;

/** A paragraph of plain text, escaped, in one of the paragraph looks. */
export function htmlParagraph(text: string, look: keyof typeof PARAGRAPH_STYLES = "plain"): string {
  const style = PARAGRAPH_STYLES[look];
  return `<p${style ? ` style="${style}"` : ""}>${escapeHtml(text)}</p>`;
}

/**
 * The greeting of a message to a person, by the name they typed ("Hello Ada,")
 * or without one ("Hello,"): the text line, and the HTML paragraph with the
 * name isolated in <bdi>, so a right-to-left name keeps the comma in place.
 */
export function greeting(
  word: "Hi" | "Hello",
  name: string,
  look: keyof typeof PARAGRAPH_STYLES = "plain",
): { text: string; html: string } {
  const style = PARAGRAPH_STYLES[look];
  const open = `<p${style ? ` style="${style}"` : ""}>`;
  return name
    ? { text: `${word} ${name},`, html: `${open}${word} <bdi>${escapeHtml(name)}</bdi>,</p>` }
    : { text: `${word},`, html: `${open}${word},</p>` };
}

/** The message's heading, escaped. */
export function htmlHeading(text: string): string {
  return `<h1 style="margin:0 0 16px;font-size:24px">${escapeHtml(text)}</h1>`;
}

/** A link styled as a button, with its address also written out for clients that hide links. */
export function htmlButton(href: string, label: string): string {
  return (
    `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 20px;background:#4338ca;color:#ffffff;text-decoration:none;border-radius:6px;font-weight:bold">${escapeHtml(label)}</a></p>` +
    `<p style="margin:0 0 16px;font-size:14px;color:#475569">Or open this address: <a href="${escapeHtml(href)}" style="color:#4338ca;word-break:break-all">${escapeHtml(href)}</a></p>`
  );
}
