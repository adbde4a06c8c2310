import { sql } from "kysely";
import type { UserRow, WaitlistRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { badRequest, conflict, notFound } from "~/infra/errors.server";
import { newId, newSecretToken, sha256 } from "~/infra/ids.server";
import { lockForTransaction } from "~/infra/sql-dialect.server";
import { findUserByEmail, insertUser } from "~/features/accounts/users.server";

/**
 * The beta's waitlist. An address joins once (the table's unique email): a
 * second request changes nothing in the list and is answered the same. The
 * admin invites from the list: an invitation is a random token whose sha256
 * is kept, mailed as a link valid INVITATION_DAYS, that lets that address,
 * and only that one, register while registration is closed. Registering
 * through it spends it (one account, once); a newer invitation to the same
 * address replaces an older one still waiting.
 *
 * BETA_SPOTS (200 unless set) is the number of accounts the beta takes through
 * invitations: a spot is taken by each invitation that made an account and
 * each one still waiting (sent, unused, not expired). An invitation that
 * expired unused gives its spot back.
 */

export const INVITATION_DAYS = 7;
const INVITATION_MS = INVITATION_DAYS * 24 * 60 * 60 * 1000;

export { WAITLIST_JOINED } from "~/features/accounts/registration/waitlist-copy";
export const INVITATION_INVALID =
  "This invitation link is not valid or was already used. Ask for a new invitation.";
export const INVITATION_EXPIRED = "This invitation has expired. Ask for a new invitation.";
export const NO_SPOTS_LEFT = "No beta spots are left (BETA_SPOTS). Raise it to invite more people.";
export const ALREADY_HAS_ACCOUNT =
  "This address has an account already: there is nobody to invite.";
export const ALREADY_JOINED = "This address made its account through an invitation already.";

/** The absolute link an invitation mail carries: the Register tab, opened for that address. */
export function invitationLink(origin: string, token: string): string {
  return `${origin}/auth?tab=register&invite=${encodeURIComponent(token)}`;
}

/** Adds the address to the list; answers whether it was new (false: it was on the list already, nothing changed). */
export async function addToWaitlist(db: DB, email: string, now: Date): Promise<{ added: boolean }> {
  const inserted = await db
    .insertInto("waitlist")
    .values({ id: newId(), email, created_at: now.toISOString() })
    .onConflict((oc) => oc.column("email").doNothing())
    .executeTakeFirst();
  return { added: Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 };
}

export type WaitlistState = "waiting" | "invited" | "expired" | "joined" | "has-account";

export interface WaitlistEntry {
  id: string;
  email: string;
  joinedAt: string;
  state: WaitlistState;
  invitedAt: string | null;
  inviteExpiresAt: string | null;
}

function stateOf(row: WaitlistRow & { has_account: number }, now: Date): WaitlistState {
  if (row.invite_used_at) return "joined";
  if (row.has_account) return "has-account";
  if (!row.invited_at) return "waiting";
  return row.invite_expires_at && row.invite_expires_at > now.toISOString() ? "invited" : "expired";
}

/** The list for the admin, oldest request first (the order people asked in). */
export async function listWaitlist(db: DB, now: Date): Promise<WaitlistEntry[]> {
  const rows = await db
    .selectFrom("waitlist")
    .selectAll("waitlist")
    .select(
      sql<number>`case when exists (select 1 from users where users.email = waitlist.email) then 1 else 0 end`.as(
        "has_account",
      ),
    )
    .orderBy("created_at", "asc")
    .orderBy("id", "asc")
    .limit(1000)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    email: row.email,
    joinedAt: row.created_at,
    state: stateOf(row, now),
    invitedAt: row.invited_at,
    inviteExpiresAt: row.invite_expires_at,
  }));
}

/** Spots taken: invitations that made an account, and invitations still waiting. */
export async function betaSpotsTaken(db: DB, now: Date): Promise<number> {
  const row = await db
    .selectFrom("waitlist")
    .select(sql<number>`count(*)`.as("taken"))
    .where((eb) =>
      eb.or([
        eb("invite_used_at", "is not", null),
        eb.and([eb("invited_at", "is not", null), eb("invite_expires_at", ">", now.toISOString())]),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.taken);
}

/**
 * BETA_SPOTS minus the spots taken (never below 0): the one count of the spots
 * left, which the landing page (betaStatus), the waitlist's confirmation mail
 * and the admin's Waitlist all state.
 */
export async function betaSpotsLeft(
  db: DB,
  spots: number,
  now: Date,
): Promise<{ total: number; left: number }> {
  return { total: spots, left: Math.max(0, spots - (await betaSpotsTaken(db, now))) };
}

/**
 * Makes a new invitation for one entry and answers its token and address. Refused
 * (409) when the address has an account or joined already, or when BETA_SPOTS
 * is set and every spot is taken (re-inviting someone whose invitation is still
 * waiting takes no new spot). Call it in a transaction with the mail: it first
 * takes the beta-spots lock (lockForTransaction), so invitations made at the
 * same time are counted one after the other and cannot pass BETA_SPOTS together.
 */
export async function inviteEntry(
  db: DB,
  args: { entryId: string; adminId: string; spots: number | undefined; now: Date },
): Promise<{ email: string; token: string; expiresAt: string }> {
  await lockForTransaction(db, "beta-spots:all");
  const entry = await db
    .selectFrom("waitlist")
    .selectAll()
    .where("id", "=", args.entryId)
    .executeTakeFirst();
  if (!entry) throw notFound("No such waitlist entry");
  if (entry.invite_used_at) throw conflict(ALREADY_JOINED);
  if (await findUserByEmail(db, entry.email)) throw conflict(ALREADY_HAS_ACCOUNT);
  const stillWaiting = Boolean(
    entry.invited_at && entry.invite_expires_at && entry.invite_expires_at > args.now.toISOString(),
  );
  if (args.spots && !stillWaiting && (await betaSpotsTaken(db, args.now)) >= args.spots)
    throw conflict(NO_SPOTS_LEFT);
  const token = newSecretToken();
  const expiresAt = new Date(args.now.getTime() + INVITATION_MS).toISOString();
  await db
    .updateTable("waitlist")
    .set({
      invited_at: args.now.toISOString(),
      invited_by: args.adminId,
      invite_token_hash: sha256(token),
      invite_expires_at: expiresAt,
    })
    .where("id", "=", entry.id)
    .execute();
  return { email: entry.email, token, expiresAt };
}

/** The waiting invitation a token names; 400 when it is unknown, spent, replaced or expired. */
export async function findInvitation(db: DB, token: string, now: Date): Promise<WaitlistRow> {
  const entry = await db
    .selectFrom("waitlist")
    .selectAll()
    .where("invite_token_hash", "=", sha256(token.trim()))
    .executeTakeFirst();
  if (!entry || entry.invite_used_at)
    throw badRequest(INVITATION_INVALID, { invite: [INVITATION_INVALID] });
  if (!entry.invite_expires_at || entry.invite_expires_at <= now.toISOString()) {
    throw badRequest(INVITATION_EXPIRED, { invite: [INVITATION_EXPIRED] });
  }
  return entry;
}

/** The waitlist entry whose invitation `email` holds and may still use (sent, unused, not expired). */
export async function waitingInvitationOf(
  db: DB,
  email: string,
  now: Date,
): Promise<{ id: string } | undefined> {
  return db
    .selectFrom("waitlist")
    .select("id")
    .where("email", "=", email.trim().toLowerCase())
    .where("invited_at", "is not", null)
    .where("invite_used_at", "is", null)
    .where("invite_expires_at", ">", now.toISOString())
    .executeTakeFirst();
}

/** Marks an entry's invitation used by the account just made (in the transaction that makes it). */
export async function spendInvitation(
  trx: DB,
  args: { entryId: string; userId: string; now: Date },
): Promise<void> {
  await trx
    .updateTable("waitlist")
    .set({ invite_used_at: args.now.toISOString(), user_id: args.userId })
    .where("id", "=", args.entryId)
    .execute();
}

/**
 * Creates the account an invitation opens, for the invitation's address only,
 * and spends the invitation, in one transaction: of two concurrent uses, one
 * makes the account and the other finds the invitation spent (400).
 */
export async function registerWithInvitation(
  db: DB,
  args: { token: string; firstName: string; lastName: string; passwordHash: string; now: Date },
): Promise<UserRow> {
  return db.transaction().execute(async (trx) => {
    const entry = await findInvitation(trx, args.token, args.now);
    const spent = await trx
      .updateTable("waitlist")
      .set({ invite_used_at: args.now.toISOString() })
      .where("id", "=", entry.id)
      .where("invite_used_at", "is", null)
      .where("invite_token_hash", "=", entry.invite_token_hash)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1)
      throw badRequest(INVITATION_INVALID, { invite: [INVITATION_INVALID] });
    const user = await insertUser(
      trx,
      {
        email: entry.email,
        firstName: args.firstName,
        lastName: args.lastName,
        passwordHash: args.passwordHash,
      },
      args.now,
    );
    await trx
      .updateTable("waitlist")
      .set({ user_id: user.id })
      .where("id", "=", entry.id)
      .execute();
    return user;
  });
}
