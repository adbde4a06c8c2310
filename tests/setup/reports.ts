import crypto from "node:crypto";
import { getDb } from "~/infra/db.server";
import { sha256 } from "~/infra/ids.server";

/**
 * A report of a listing, written as the reports feature writes one (vitest
 * only): a copyright report, which hides nothing; `unconfirmed` with the
 * mailed link's `token`, or `open` and due 48 hours from now.
 */
export async function insertReport(
  listing: { id: string; user_id: string },
  { token, status }: { token?: string; status: "unconfirmed" | "open" },
): Promise<string> {
  const id = crypto.randomUUID();
  const now = new Date();
  await getDb()
    .insertInto("reports")
    .values({
      id,
      listing_id: listing.id,
      creator_id: listing.user_id,
      handle: null,
      reason: "copyright",
      email: `reporter-${id}@example.com`,
      email_key: `reporter-${id}@example.com`,
      details: "",
      token_hash: token ? sha256(token) : null,
      status,
      created_at: now.toISOString(),
      confirmed_at: status === "open" ? now.toISOString() : null,
      due_at: status === "open" ? new Date(now.getTime() + 48 * 3600_000).toISOString() : null,
    })
    .execute();
  return id;
}
