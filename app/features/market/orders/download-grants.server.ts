import crypto from "node:crypto";
import type { OrderItemRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { newId, sha256 } from "~/infra/ids.server";
import { deriveKey } from "~/infra/keys.server";
import { DOWNLOAD_GRANT_DAYS, DOWNLOAD_GRANT_MAX_DOWNLOADS } from "~/features/market/types";
import { licenseTypeOf, type LicenseType } from "~/lib/license-terms";

/**
 * Download grants: one per purchased item, a link that works for 7 days and a
 * few downloads. The database holds only the SHA-256 of the token. The token
 * is an HMAC of the grant's random id under a key derived from the app secret,
 * so the server can show the link again (on the payment status) without ever
 * storing it; a copy of the database alone gives no working link.
 */
export function grantToken(grantId: string): string {
  return crypto
    .createHmac("sha256", deriveKey("download-grants"))
    .update(grantId)
    .digest("base64url");
}

/** Issues the grants of an order's items; an item that already has one keeps it (unique order_item_id). */
export async function issueDownloadGrants(
  db: DB,
  items: OrderItemRow[],
  now: Date,
): Promise<number> {
  let issued = 0;
  const expires = new Date(now.getTime() + DOWNLOAD_GRANT_DAYS * 24 * 60 * 60 * 1000).toISOString();
  for (const item of items) {
    const id = newId();
    const result = await db
      .insertInto("download_grants")
      .values({
        id,
        order_item_id: item.id,
        order_id: item.order_id,
        token_hash: sha256(grantToken(id)),
        max_downloads: DOWNLOAD_GRANT_MAX_DOWNLOADS,
        downloads_used: 0,
        expires_at: expires,
        created_at: now.toISOString(),
      })
      .onConflict((oc) => oc.column("order_item_id").doNothing())
      .executeTakeFirst();
    issued += Number(result.numInsertedOrUpdatedRows ?? 0n);
  }
  return issued;
}

export interface OrderDownload {
  orderItemId: string;
  title: string;
  style: string;
  /** The licence tier it was bought with (decision 101). */
  licenseType: LicenseType;
  filename: string;
  downloadUrl: string;
  expiresAt: string;
  downloadsLeft: number;
}

/** The download links of an order's grants (absolute URLs under `origin`). */
export async function downloadsOfOrder(
  db: DB,
  orderId: string,
  origin: string,
): Promise<OrderDownload[]> {
  const rows = await db
    .selectFrom("download_grants as g")
    .innerJoin("order_items as i", "i.id", "g.order_item_id")
    .select([
      "g.id",
      "g.expires_at",
      "g.max_downloads",
      "g.downloads_used",
      "i.id as item_id",
      "i.title",
      "i.style",
      "i.file_key",
      "i.license_type",
    ])
    .where("g.order_id", "=", orderId)
    // Items in the order they were bought (the cart's order): their positions.
    .orderBy("i.position")
    .execute();
  return rows.map((row) => ({
    orderItemId: row.item_id,
    title: row.title,
    style: row.style,
    licenseType: licenseTypeOf(row.license_type),
    filename: downloadFilename(row.title, row.style, row.file_key),
    downloadUrl: `${origin}/downloads/${grantToken(row.id)}`,
    expiresAt: row.expires_at,
    downloadsLeft: Math.max(0, row.max_downloads - row.downloads_used),
  }));
}

/** A readable file name: "sunset-portrait-anime.jpg" (letters, digits and dashes only). */
export function downloadFilename(title: string, style: string, fileKey: string): string {
  const extension = fileKey.slice(fileKey.lastIndexOf(".") + 1);
  const slug = (text: string) =>
    text
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 60);
  const base = [slug(title), slug(style)].filter(Boolean);
  const unique = base.length === 2 && base[0].endsWith(base[1]) ? [base[0]] : base;
  return `${unique.join("-") || "image"}.${extension}`;
}

export type Redemption =
  | { ok: true; fileKey: string; mimeType: string; filename: string; downloadsLeft: number }
  | { ok: false; reason: "unknown" | "expired" | "exhausted" | "suspended" }
  | { ok: false; reason: "refunded"; refundedAt: string | null };

/**
 * Spends one download of a grant. The check and the count are one UPDATE, so
 * parallel requests cannot spend more than the grant allows: SQLite runs one
 * at a time, and PostgreSQL makes a concurrent UPDATE of the row wait for
 * the one before and check `downloads_used < max_downloads` again against
 * what it stored. A refunded
 * order's grants are gone for good; a disputed order's are suspended until the
 * dispute closes. `count: false`
 * (for HEAD) checks without spending.
 */
export async function redeemDownload(
  db: DB,
  token: string,
  now: Date,
  options: { count?: boolean } = {},
): Promise<Redemption> {
  const tokenHash = sha256(token);
  const stamp = now.toISOString();
  const grant = await db
    .selectFrom("download_grants as g")
    .innerJoin("order_items as i", "i.id", "g.order_item_id")
    .innerJoin("orders as o", "o.id", "g.order_id")
    .select([
      "g.id",
      "g.expires_at",
      "g.max_downloads",
      "g.downloads_used",
      "i.title",
      "i.style",
      "i.file_key",
      "i.file_mime_type",
      "o.status",
      "o.refunded_at",
    ])
    .where("g.token_hash", "=", tokenHash)
    .executeTakeFirst();
  if (grant?.status === "refunded")
    return { ok: false, reason: "refunded", refundedAt: grant.refunded_at };
  if (grant?.status === "disputed") return { ok: false, reason: "suspended" };
  if (!grant || grant.status !== "paid") return { ok: false, reason: "unknown" };
  if (grant.expires_at <= stamp) return { ok: false, reason: "expired" };
  let used = grant.downloads_used;
  if (options.count !== false) {
    const spent = await db
      .updateTable("download_grants")
      .set((eb) => ({ downloads_used: eb("downloads_used", "+", 1) }))
      .where("id", "=", grant.id)
      .where("downloads_used", "<", grant.max_downloads)
      .where("expires_at", ">", stamp)
      .returning("downloads_used")
      .executeTakeFirst();
    if (!spent) return { ok: false, reason: "exhausted" };
    used = spent.downloads_used;
  } else if (used >= grant.max_downloads) {
    return { ok: false, reason: "exhausted" };
  }
  return {
    ok: true,
    fileKey: grant.file_key,
    mimeType: grant.file_mime_type,
    filename: downloadFilename(grant.title, grant.style, grant.file_key),
    downloadsLeft: Math.max(0, grant.max_downloads - used),
  };
}

/** A used-up or expired grant is renewed at most once in this many hours (see renewSpentGrant). */
export const GRANT_RENEWAL_HOURS = 24;

/**
 * Renews an item's grant when it is used up or expired and was issued (or
 * last renewed) more than GRANT_RENEWAL_HOURS ago: a new id (so a new token;
 * the old link stops working), a fresh count and a fresh expiry. One row per
 * item stays the rule (order_item_id is unique), so the row's created_at is
 * when it was last issued, and the condition sits in the UPDATE: two pages
 * shown at once renew it once. Answers whether it renewed.
 */
export async function renewSpentGrant(db: DB, grantId: string, now: Date): Promise<boolean> {
  const stamp = now.toISOString();
  const renewableBefore = new Date(
    now.getTime() - GRANT_RENEWAL_HOURS * 60 * 60 * 1000,
  ).toISOString();
  const id = newId();
  const renewed = await db
    .updateTable("download_grants")
    .set({
      id,
      token_hash: sha256(grantToken(id)),
      max_downloads: DOWNLOAD_GRANT_MAX_DOWNLOADS,
      downloads_used: 0,
      expires_at: new Date(now.getTime() + DOWNLOAD_GRANT_DAYS * 24 * 60 * 60 * 1000).toISOString(),
      created_at: stamp,
    })
    .where("id", "=", grantId)
    .where("created_at", "<=", renewableBefore)
    .where((eb) =>
      eb.or([eb("downloads_used", ">=", eb.ref("max_downloads")), eb("expires_at", "<=", stamp)]),
    )
    .executeTakeFirst();
  return Number(renewed.numUpdatedRows ?? 0n) > 0;
}
