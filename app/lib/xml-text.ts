/**
 * Text people type that ends up in XML: titles are drawn into the listing's
 * social card (SVG) and sitemaps, names and bios into pages and mail. XML 1.0
 * cannot hold some code points at all (its `Char` production): C0 control
 * characters other than tab, line feed and carriage return, lone surrogates,
 * and U+FFFE and U+FFFF. One such character makes the whole document
 * unreadable (a social card that never draws), so titles, bios and names
 * refuse them when typed, and what draws stored text leaves them out.
 */

/** One code point XML cannot hold (a lone surrogate is one whose partner is missing). */
const NOT_XML_CHAR =
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const NOT_XML_CHARS = new RegExp(NOT_XML_CHAR.source, "g");

/** Whether XML can hold every code point of `text`. */
export function holdsOnlyXmlText(text: string): boolean {
  return !NOT_XML_CHAR.test(text);
}

/** `text` without the code points XML cannot hold. */
export function withoutNonXmlText(text: string): string {
  return text.replace(NOT_XML_CHARS, "");
}

/** The message of a field that holds one: `what` is the field as the form names it ("Title"). */
export function nonXmlTextMessage(what: string): string {
  return `${what} must not hold control characters or invisible non-characters (such as U+FFFF)`;
}
