import crypto from "node:crypto";
import { deriveKey } from "~/infra/keys.server";
import { recipientAddressOf } from "~/infra/mail/mail-address.server";

/**
 * What a log line may say of a message's recipient: never the address (a log
 * outlives an erasure, and is read by more people than the database), but a
 * short keyed hash of it, `recipient#3kP9xQ2m`, the same for one address in
 * every line, so an operator can still follow one person's mail through the
 * logs (and match a complaint by computing the tag). Keyed by the app secret:
 * a list of addresses cannot be hashed to find whose it is.
 */
export function recipientTag(to: string): string {
  const digest = crypto
    .createHmac("sha256", deriveKey("mail-recipients-in-logs"))
    .update(recipientAddressOf(to))
    .digest("base64url");
  return `recipient#${digest.slice(0, 10)}`;
}

/**
 * `text` with every spelling of the recipient's address (and its whole
 * mailbox, display name included) replaced by its tag: an error a mail server
 * answered often quotes the address it refused.
 */
export function withoutRecipient(text: string, to: string): string {
  const tag = recipientTag(to);
  const address = recipientAddressOf(to);
  const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const spellings = [to.trim(), address].filter((value) => value.length > 0);
  return spellings.reduce(
    (scrubbed, spelling) => scrubbed.replace(new RegExp(escape(spelling), "gi"), tag),
    text,
  );
}
