import { sql } from "kysely";
import type { DB } from "~/infra/db.server";
import { notFound } from "~/infra/errors.server";
import { newId, newSecretToken, sha256 } from "~/infra/ids.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { queueMail, queueMailWithinRecipientLimit } from "~/features/mail/public.server";
import { recordAuditEntry } from "~/features/audit/public.server";
import {
  publiclyListed,
  reportableTarget,
} from "~/features/market/catalog/listing-visibility.server";
import {
  FOLLOW_LINK_DAYS,
  FOLLOW_REQUESTED,
  INVALID_FOLLOW_LINK,
  UNKNOWN_CREATOR,
  type FollowInput,
} from "./follow-types";
import {
  followConfirmLink,
  followIdOfToken,
  listUnsubscribeHeaders,
  unsubscribeLink,
} from "./follow-links.server";
import { renderFollowConfirmMail, renderFollowDigestMail } from "./follow-mail.server";

/**
 * Following a creator without an account (docs/decisions/096). Anyone types
 * an address on a storefront or a listing page; the follow is stored
 * `unconfirmed` and a link mailed; the link's page posts the confirmation (a
 * mail scanner opening it changes nothing). A confirmed follow gets at most
 * one digest a day of the creator's new listings, queued by the periodic
 * `follow-digests` task. Every message of a follow carries List-Unsubscribe
 * and List-Unsubscribe-Post (RFC 8058); a POST to that address deletes the
 * follow, its address with it. A creator sees how many confirmed followers
 * they have, never who.
 */

const LINK_MS = FOLLOW_LINK_DAYS * 24 * 60 * 60 * 1000;
/** At most one digest per follow in this long. */
export const DIGEST_SPACING_MS = 24 * 60 * 60 * 1000;
/** The most listings one digest names (the newest); the storefront link shows the rest. */
export const DIGEST_MAX_LISTINGS = 12;

function displayName(user: { first_name: string; last_name: string; handle: string | null }) {
  const name = `${user.first_name} ${user.last_name}`.trim();
  return name || (user.handle ? `@${user.handle}` : "A creator");
}

async function creatorOfHandle(db: DB, handle: string) {
  const target = await reportableTarget(db, { handle: handle.trim().toLowerCase() });
  if (!target) return null;
  return db
    .selectFrom("users")
    .select(["id", "first_name", "last_name", "handle"])
    .where("id", "=", target.creatorId)
    .executeTakeFirst();
}

/**
 * Stores a follow and mails its confirmation link (within the recipient's
 * limit of mail strangers can make us send). The same address following the
 * same creator again keeps one follow: an unconfirmed one gets a new link (the
 * old one stops working), a confirmed one stays as it is and nothing is
 * mailed. Answers the same either way. 404 for an unknown, banned or erased
 * creator. `origin` null (no public address configured) stores the follow but
 * mails nothing.
 */
export async function requestFollow(
  db: DB,
  args: { input: FollowInput; origin: string | null; now: Date },
): Promise<{ message: string }> {
  const { now } = args;
  const creator = await creatorOfHandle(db, args.input.handle);
  if (!creator) throw notFound(UNKNOWN_CREATOR);
  const email = args.input.email.trim();
  const emailKey = email.toLowerCase();
  const token = newSecretToken();
  await db.transaction().execute(async (trx) => {
    const same = await trx
      .selectFrom("follows")
      .select(["id", "status"])
      .where("creator_id", "=", creator.id)
      .where("email_key", "=", emailKey)
      .executeTakeFirst();
    if (same?.status === "confirmed") return;
    const id = same?.id ?? newId();
    if (same) {
      await trx
        .updateTable("follows")
        .set({ token_hash: sha256(token), email, created_at: now.toISOString() })
        .where("id", "=", id)
        .execute();
    } else {
      await trx
        .insertInto("follows")
        .values({
          id,
          creator_id: creator.id,
          email,
          email_key: emailKey,
          status: "unconfirmed",
          token_hash: sha256(token),
          created_at: now.toISOString(),
        })
        .execute();
    }
    if (args.origin) {
      await queueMailWithinRecipientLimit(trx, {
        to: email,
        ...renderFollowConfirmMail({
          creatorName: displayName(creator),
          confirmLink: followConfirmLink(args.origin, token),
          unsubscribeLink: unsubscribeLink(args.origin, id),
        }),
        headers: listUnsubscribeHeaders(args.origin, id),
        now,
      });
    }
  });
  announceJobs();
  return { message: FOLLOW_REQUESTED };
}

/**
 * Confirms a follow by its mailed link's token: from now on the creator's new
 * listings go into its digests. A link used before (the follow confirmed)
 * answers the same; an unknown or expired one is a 404.
 */
export async function confirmFollow(
  db: DB,
  args: { token: string; now: Date },
): Promise<{ status: "confirmed"; handle: string | null }> {
  return db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom("follows")
      .selectAll()
      .where("token_hash", "=", sha256(args.token))
      .executeTakeFirst();
    if (!found || Date.parse(found.created_at) + LINK_MS <= args.now.getTime())
      throw notFound(INVALID_FOLLOW_LINK);
    const at = args.now.toISOString();
    await trx
      .updateTable("follows")
      .set({ status: "confirmed", token_hash: null, confirmed_at: at, digest_since: at })
      .where("id", "=", found.id)
      .execute();
    const creator = await trx
      .selectFrom("users")
      .select("handle")
      .where("id", "=", found.creator_id)
      .executeTakeFirst();
    return { status: "confirmed" as const, handle: creator?.handle ?? null };
  });
}

/**
 * Ends a follow by its unsubscribe token (the one-click POST, or the page's
 * button): its row goes at once, the address with it. A follow ended before
 * answers the same; a token whose signature is wrong is a 404.
 */
export async function endFollow(db: DB, args: { token: string }): Promise<{ status: "ended" }> {
  const id = followIdOfToken(args.token);
  if (!id) throw notFound(INVALID_FOLLOW_LINK);
  await db.deleteFrom("follows").where("id", "=", id).execute();
  return { status: "ended" };
}

/** A creator's confirmed followers: a count, never an address. */
export async function followerCount(db: DB, creatorId: string): Promise<number> {
  const row = await db
    .selectFrom("follows")
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .where("creator_id", "=", creatorId)
    .where("status", "=", "confirmed")
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * The admin drops an address that bounces or complains: every follow of it
 * goes (confirmed or not), audited by count (the log names no address).
 */
export async function dropFollowerAddress(
  db: DB,
  args: { email: string; adminId: string; now: Date },
): Promise<{ dropped: number }> {
  return db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom("follows")
      .where("email_key", "=", args.email.trim().toLowerCase())
      .executeTakeFirst();
    const dropped = Number(deleted.numDeletedRows);
    await recordAuditEntry(trx, {
      actorId: args.adminId,
      action: "follow.drop",
      subjectId: "follower-address",
      detail: { follows: dropped },
      now: args.now,
    });
    return { dropped };
  });
}

/**
 * An account's erasure (in its transaction): the follows of the creator (their
 * followers' addresses) and the follows the person made with any of the
 * account's addresses.
 */
export async function eraseFollowsOf(
  db: DB,
  args: { userId: string; emails: readonly string[] },
): Promise<void> {
  await db.deleteFrom("follows").where("creator_id", "=", args.userId).execute();
  const keys = args.emails.map((email) => email.trim().toLowerCase()).filter(Boolean);
  if (keys.length > 0) await db.deleteFrom("follows").where("email_key", "in", keys).execute();
}

/**
 * The periodic digest: every confirmed follow whose last digest is a day old
 * (or that had none) and whose creator listed something since its
 * `digest_since` gets one message of those listings, queued as a mail job in
 * the transaction that moves its `digest_since` and `last_digest_at` on. The
 * move is one UPDATE guarded by the `last_digest_at` it read, so should two
 * runs ever overlap (the periodic lease already prevents it), a follow is
 * mailed by one of them only. Answers how many digests were queued.
 */
export async function sendFollowDigests(
  db: DB,
  args: { origin: string; now: Date },
): Promise<number> {
  const at = args.now.toISOString();
  const dayAgo = new Date(args.now.getTime() - DIGEST_SPACING_MS).toISOString();
  const due = await db
    .selectFrom("follows as f")
    .innerJoin("users as u", "u.id", "f.creator_id")
    .select([
      "f.id",
      "f.email",
      "f.creator_id",
      "f.digest_since",
      "f.last_digest_at",
      "u.first_name",
      "u.last_name",
      "u.handle",
    ])
    .where("f.status", "=", "confirmed")
    .where((eb) =>
      eb.or([eb("f.last_digest_at", "is", null), eb("f.last_digest_at", "<=", dayAgo)]),
    )
    .where("u.banned", "=", 0)
    .where("u.erased_at", "is", null)
    .where("u.handle", "is not", null)
    .where(({ exists, selectFrom }) =>
      exists(
        selectFrom("listings as l")
          .innerJoin("users as u2", "u2.id", "l.user_id")
          .select(sql<number>`1`.as("one"))
          .whereRef("l.user_id", "=", "f.creator_id")
          .whereRef("l.created_at", ">", "f.digest_since")
          .where("l.created_at", "<=", at)
          .where(sql<boolean>`(l.status = 'active' and l.hidden_at is null and u2.banned = 0)`),
      ),
    )
    .orderBy("f.id")
    .execute();
  let queued = 0;
  for (const follow of due) {
    const sent = await db.transaction().execute(async (trx) => {
      const listings = await trx
        .selectFrom("listings as l")
        .innerJoin("users as u", "u.id", "l.user_id")
        .select(["l.id", "l.title", "l.price_cents"])
        .where("l.user_id", "=", follow.creator_id)
        .where("l.created_at", ">", follow.digest_since ?? at)
        .where("l.created_at", "<=", at)
        .where(publiclyListed)
        .orderBy("l.created_at", "desc")
        .orderBy("l.id", "desc")
        .limit(DIGEST_MAX_LISTINGS)
        .execute();
      if (listings.length === 0) return false;
      let guard = trx
        .updateTable("follows")
        .set({ digest_since: at, last_digest_at: at })
        .where("id", "=", follow.id)
        .where("status", "=", "confirmed");
      guard =
        follow.last_digest_at === null
          ? guard.where("last_digest_at", "is", null)
          : guard.where("last_digest_at", "=", follow.last_digest_at);
      const moved = await guard.executeTakeFirst();
      if (Number(moved.numUpdatedRows) === 0) return false;
      await queueMail(trx, {
        to: follow.email,
        ...renderFollowDigestMail({
          creatorName: displayName(follow),
          storefrontLink: `${args.origin}/creators/${encodeURIComponent(follow.handle ?? "")}`,
          listings: listings.map((listing) => ({
            title: listing.title,
            priceCents: listing.price_cents,
            link: `${args.origin}/marketplace/${encodeURIComponent(listing.id)}`,
          })),
          unsubscribeLink: unsubscribeLink(args.origin, follow.id),
        }),
        headers: listUnsubscribeHeaders(args.origin, follow.id),
        now: args.now,
      });
      return true;
    });
    if (sent) queued += 1;
  }
  if (queued > 0) announceJobs();
  return queued;
}
