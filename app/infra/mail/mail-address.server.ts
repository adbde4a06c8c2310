import addressparser from "nodemailer/lib/addressparser";

/**
 * One mailbox as RFC 5322 writes it: `studio@example.com` or
 * `Selfie Studio <studio@example.com>` (a display name, quoted when it holds
 * commas or other specials). Lists and groups are not one mailbox.
 */
export interface Mailbox {
  name: string;
  address: string;
}

/** local@domain: no spaces or specials in the local part; the domain is dot-separated labels (`localhost` included). */
const ADDRESS =
  /^[^\s@<>()[\]\\,;:"]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** Whether `address` is a bare address this app sends from or to. */
export function isMailAddress(address: string): boolean {
  return address.length <= 254 && ADDRESS.test(address);
}

/** The one mailbox `text` names, or null when it is not exactly one valid mailbox. */
export function parseMailbox(text: string): Mailbox | null {
  if (/[\r\n]/.test(text)) return null;
  const entries = addressparser(text.trim());
  if (entries.length !== 1) return null;
  const [entry] = entries;
  if (entry.group !== undefined || !isMailAddress(entry.address)) return null;
  return { name: entry.name, address: entry.address };
}

/**
 * The address a message's recipient (`to`: one mailbox, with or without a
 * display name) is counted and forgotten by: the address alone, trimmed and
 * lower-cased. Text that is not one mailbox is taken whole, the same way.
 */
export function recipientAddressOf(to: string): string {
  return (parseMailbox(to)?.address ?? to).trim().toLowerCase();
}
