import { z } from "zod";
import type { OrderItemRow, OrderRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { enqueueJob } from "~/infra/jobs/job-queue.server";
import type { JobHandler, JobRunContext } from "~/infra/jobs/job-worker.server";
import { getConfig } from "~/infra/config.server";
import { mailLinkOrigin } from "~/infra/configured-origin.server";
import { queueMail } from "~/features/mail/public.server";
import { withdrawBundlesOfListings } from "~/features/market/bundles/bundle-withdrawal.server";
import { refundWholeOrderAtOnce } from "~/features/market/orders/suspended-seller-refunds.server";
import { renderExclusiveSoldMail } from "~/features/market/orders/exclusive-sold-mail.server";

/**
 * Exclusive licences (docs/decisions/101). Once an Exclusive licence of a
 * listing is paid, the creator sells that image to no one else:
 *
 * - In the fulfilling transaction, the listing is claimed with a conditional
 *   UPDATE (`... SET exclusive_sold_at = now, status = 'withdrawn' WHERE
 *   exclusive_sold_at IS NULL`): of two buyers paying for the same Exclusive
 *   at once, exactly one sees the row change. SQLite runs one write
 *   transaction at a time; PostgreSQL makes the second UPDATE wait for the
 *   first one's row lock and then re-check its WHERE against the committed
 *   row, which no longer matches. The bundles holding it are withdrawn in the
 *   same transaction; the job queued there takes its preview down, withdraws
 *   its publications on the other platforms and tells the creator where it is
 *   still up (a platform with no API to withdraw it).
 * - Any other order that holds the listing (Standard, Extended, a bundle, or
 *   the losing Exclusive) and is paid after that is refunded at once, in
 *   full, in its own fulfilling transaction: the same conditional check takes
 *   the listing's row lock first (a no-op UPDATE), so a sale paid while the
 *   Exclusive's transaction is open waits for it and is then refused. Only
 *   listings that offer an Exclusive (or sold one) are checked this way.
 * - The refund is recorded like any refund (the order refunded, no grants, the
 *   buyer's refund notice; no creator was told of a sale, so none is told of
 *   its reversal) and the money goes back through the refund job at the
 *   order's provider, the built-in test provider too, exactly once: only the
 *   transaction that marked the order paid gets here, and the job's
 *   idempotency key is the order's first refund's.
 * - Licences sold before stay valid.
 */

export const EXCLUSIVE_SOLD_JOB = "market.exclusive-sold";

/** The buyer's refund reason when the image was sold with an Exclusive licence first. */
export const EXCLUSIVE_TAKEN_REFUND_REASON =
  "This image was sold with an Exclusive license to another buyer just before your payment, so the creator can no longer sell it; your payment was refunded in full";

/** What the creator is told of a publication the product could not take down itself. */
export interface ExclusiveLeftUp {
  name: string;
  url: string | null;
  what: string;
}

/**
 * Claims the Exclusive licences of a just-paid order and checks its other
 * listings were not sold exclusively already (in the fulfilling transaction,
 * listings in id order so two orders never wait on each other in a circle).
 * Answers whether the order must be refunded instead.
 */
export async function claimExclusiveLicences(
  trx: DB,
  items: OrderItemRow[],
  now: Date,
): Promise<{ refused: boolean; claimed: string[] }> {
  const listingIds = [...new Set(items.map((item) => item.listing_id))].sort();
  if (listingIds.length === 0) return { refused: false, claimed: [] };
  const guarded = await trx
    .selectFrom("listings")
    .select("id")
    .where("id", "in", listingIds)
    .where((eb) =>
      eb.or([eb("exclusive_price_cents", "is not", null), eb("exclusive_sold_at", "is not", null)]),
    )
    .execute();
  const guardedIds = new Set(guarded.map((row) => row.id));
  const exclusive = new Set(
    items.filter((item) => item.license_type === "exclusive").map((item) => item.listing_id),
  );
  const stamp = now.toISOString();
  const claimed: string[] = [];
  for (const listingId of listingIds) {
    if (!guardedIds.has(listingId) && !exclusive.has(listingId)) continue;
    const row = exclusive.has(listingId)
      ? await trx
          .updateTable("listings")
          .set({ exclusive_sold_at: stamp, status: "withdrawn", updated_at: stamp })
          .where("id", "=", listingId)
          .where("exclusive_sold_at", "is", null)
          .returning("id")
          .executeTakeFirst()
      : // Takes the row's lock (waiting for an Exclusive's open transaction), then checks.
        await trx
          .updateTable("listings")
          .set((eb) => ({ exclusive_sold_at: eb.ref("exclusive_sold_at") }))
          .where("id", "=", listingId)
          .where("exclusive_sold_at", "is", null)
          .returning("id")
          .executeTakeFirst();
    if (!row) return { refused: true, claimed: [] };
    if (exclusive.has(listingId)) claimed.push(listingId);
  }
  if (claimed.length > 0) {
    await withdrawBundlesOfListings(trx, claimed, now);
    for (const listingId of claimed)
      await enqueueJob(trx, {
        kind: EXCLUSIVE_SOLD_JOB,
        payload: { listingId },
        now,
        maxAttempts: 8,
      });
  }
  return { refused: false, claimed };
}

/** The paid order is refunded in full at once: an image in it was sold exclusively before (in the fulfilling transaction). */
export function refundForExclusiveTaken(
  trx: DB,
  order: OrderRow,
  now: Date,
  /** Why, in the buyer's words (a discount code used up first refunds the same way). */
  reason: string = EXCLUSIVE_TAKEN_REFUND_REASON,
): Promise<OrderRow> {
  // Given back at its provider (the test provider's too), unless Shopify took the payment.
  return refundWholeOrderAtOnce(trx, order, {
    now,
    reason,
    atProvider: order.provider !== "shopify",
  });
}

export interface ExclusiveSoldJobDeps {
  store: FileStore;
  /**
   * Withdraws the image's publications on the other platforms (publishing's
   * withdrawal path, handed in at boot) and answers where it could not.
   */
  withdrawPublications: (
    db: DB,
    store: FileStore,
    args: { stylizedImageId: string; reason: string; now: Date },
  ) => Promise<ExclusiveLeftUp[]>;
}

const payload = z.object({ listingId: z.string().min(1) }).strict();
type ExclusiveSoldPayload = z.infer<typeof payload>;

/** Why the publications were withdrawn, as their rows record it. */
export const EXCLUSIVE_WITHDRAWAL_REASON =
  "Withdrawn: the image was sold with an Exclusive license, so it is sold to no one else";

/**
 * After an Exclusive sale: the listing's public preview goes (the sold file
 * stays for its buyers), its publications elsewhere are withdrawn, and the
 * creator is mailed what was taken down and where to take it down by hand.
 * Safe to run again: each step finds its work done.
 */
export async function runExclusiveSold(
  deps: ExclusiveSoldJobDeps,
  { listingId }: ExclusiveSoldPayload,
  context: Pick<JobRunContext, "db" | "now">,
): Promise<ExclusiveLeftUp[]> {
  const { db } = context;
  const now = context.now();
  const listing = await db
    .selectFrom("listings as l")
    .innerJoin("users as u", "u.id", "l.user_id")
    .select(["l.preview_key", "l.stylized_image_id", "l.title", "u.email", "u.first_name"])
    .where("l.id", "=", listingId)
    .executeTakeFirst();
  if (!listing) return [];
  await deps.store.remove(listing.preview_key);
  const leftUp = listing.stylized_image_id
    ? await deps.withdrawPublications(db, deps.store, {
        stylizedImageId: listing.stylized_image_id,
        reason: EXCLUSIVE_WITHDRAWAL_REASON,
        now,
      })
    : [];
  const origin = mailLinkOrigin(getConfig(), `Listing ${listingId}: the exclusive-sale notice`);
  if (origin) {
    // Last, so a failed attempt before it mails nothing and its retry mails once.
    const message = renderExclusiveSoldMail({
      creatorName: listing.first_name,
      title: listing.title,
      leftUp,
      dashboardUrl: new URL("/dashboard", origin).toString(),
    });
    await queueMail(db, { to: listing.email, ...message, now });
  }
  return leftUp;
}

export function exclusiveSoldJobHandler(
  deps: ExclusiveSoldJobDeps,
): JobHandler<ExclusiveSoldPayload> {
  return {
    parse: (value) => payload.parse(value),
    run: async (value, context) => {
      await runExclusiveSold(deps, value, context);
    },
    timeoutMs: 2 * 60_000,
  };
}
