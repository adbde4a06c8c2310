import type { Kysely } from "kysely";
import type { Database } from "#db/schema";

/**
 * Leases on named periodic tasks, one row each in `periodic_leases`: a holder
 * (a process and run) and an expiry. Each change is one statement whose WHERE
 * says when it may happen, so two processes racing for a lease cannot both
 * win: SQLite runs one writer at a time, and on PostgreSQL the second UPDATE
 * waits for the first's row lock and then finds the lease no longer free.
 *
 * - acquire: takes a lease nobody has yet or whose expiry has passed (even the
 *   holder's own: a holder extends its lease with renew, never with acquire);
 * - renew: moves the expiry of a lease the holder still holds;
 * - release: ends the holder's lease at once, so another may take it.
 */

type Executor = Kysely<Database>;

export interface LeaseClaim {
  name: string;
  holder: string;
  /** How long the lease holds from `now`. */
  ttlMs: number;
  now: Date;
}

/** Takes the lease when it is free or expired; answers whether `holder` has it now. */
export async function acquireLease(db: Executor, claim: LeaseClaim): Promise<boolean> {
  const at = claim.now.toISOString();
  const until = new Date(claim.now.getTime() + claim.ttlMs).toISOString();
  const inserted = await db
    .insertInto("periodic_leases")
    .values({ name: claim.name, holder: claim.holder, expires_at: until, updated_at: at })
    .onConflict((conflict) => conflict.column("name").doNothing())
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return true;
  const taken = await db
    .updateTable("periodic_leases")
    .set({ holder: claim.holder, expires_at: until, updated_at: at })
    .where("name", "=", claim.name)
    .where("expires_at", "<=", at)
    .executeTakeFirst();
  return Number(taken.numUpdatedRows) > 0;
}

/** Extends the lease to `now + ttlMs` if `holder` still holds it (nobody took it over); answers whether it did. */
export async function renewLease(db: Executor, claim: LeaseClaim): Promise<boolean> {
  const renewed = await db
    .updateTable("periodic_leases")
    .set({
      expires_at: new Date(claim.now.getTime() + claim.ttlMs).toISOString(),
      updated_at: claim.now.toISOString(),
    })
    .where("name", "=", claim.name)
    .where("holder", "=", claim.holder)
    .executeTakeFirst();
  return Number(renewed.numUpdatedRows) > 0;
}

/** Ends `holder`'s lease now (another may acquire it at once); a lease held by someone else is left alone. */
export async function releaseLease(
  db: Executor,
  lease: { name: string; holder: string; now: Date },
): Promise<void> {
  const at = lease.now.toISOString();
  await db
    .updateTable("periodic_leases")
    .set({ expires_at: at, updated_at: at })
    .where("name", "=", lease.name)
    .where("holder", "=", lease.holder)
    .execute();
}
