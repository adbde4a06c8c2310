import { sql } from "kysely";
import type { PayoutAccountStatus, ShareStatus } from "#db/schema";
import type { DB } from "~/infra/db.server";
import type { SalesScope } from "~/features/payouts/ledger/earnings.server";

/**
 * A creator's money, from the ledger alone, in cents:
 * - earned: every share less what refunds took back (= owed + transferred + held);
 * - owed: not sent yet (no ready payout account, or on its way);
 * - transferred: sent to the creator's payout account;
 * - held: a dispute is open on the order;
 * - reversed: what refunds and lost disputes took back.
 * Outside the scope (a production server) test-checkout sales count nowhere.
 */
export interface BalanceCents {
  earned: number;
  owed: number;
  transferred: number;
  held: number;
  reversed: number;
}

function balanceColumns() {
  const net = sql<number>`e.amount_cents - e.creator_reversed_cents`;
  const when = (status: ShareStatus) =>
    sql<number>`coalesce(sum(case when e.status = ${status} then ${net} else 0 end), 0)`;
  // A sale made in the creator's own Shopify store ('elsewhere') was paid to them there: no balance of ours.
  const throughUs = sql<boolean>`e.status <> 'elsewhere'`;
  return [
    sql<number>`coalesce(sum(case when ${throughUs} then ${net} else 0 end), 0)`.as("earned"),
    when("owed").as("owed"),
    when("transferred").as("transferred"),
    when("held").as("held"),
    sql<number>`coalesce(sum(case when ${throughUs} then e.creator_reversed_cents else 0 end), 0)`.as(
      "reversed",
    ),
  ] as const;
}

function toBalance(
  row:
    | { earned: number; owed: number; transferred: number; held: number; reversed: number }
    | undefined,
): BalanceCents {
  return {
    earned: Number(row?.earned ?? 0),
    owed: Number(row?.owed ?? 0),
    transferred: Number(row?.transferred ?? 0),
    held: Number(row?.held ?? 0),
    reversed: Number(row?.reversed ?? 0),
  };
}

export async function creatorBalance(
  db: DB,
  userId: string,
  scope: SalesScope,
): Promise<BalanceCents> {
  const row = await db
    .selectFrom("earnings as e")
    .select(balanceColumns())
    .where("e.creator_id", "=", userId)
    .$if(!scope.includeTestSales, (qb) => qb.where("e.test_mode", "=", 0))
    .executeTakeFirst();
  return toBalance(row);
}

export interface ShareTransfer {
  /** The provider's transfer id. */
  id: string;
  /** The sold item's title, as it was sold (the order item's). */
  title: string;
  /** The sold item's reference (the order id is the buyer's, not the creator's). */
  saleReference: string;
  /** Cents sent. */
  amountCents: number;
  /** Cents taken back since. */
  reversedCents: number;
  status: ShareStatus;
  createdAt: string;
  testMode: boolean;
}

/** Every share that was sent to the creator's payout account, newest first. */
export async function creatorTransfers(db: DB, userId: string): Promise<ShareTransfer[]> {
  const rows = await db
    .selectFrom("earnings as e")
    .innerJoin("order_items as i", "i.id", "e.order_item_id")
    .select([
      "e.transfer_id",
      "e.order_item_id",
      "i.title",
      "e.transferred_cents",
      "e.transfer_reversed_cents",
      "e.status",
      "e.transferred_at",
      "e.test_mode",
    ])
    .where("e.creator_id", "=", userId)
    .where("e.transfer_id", "is not", null)
    .orderBy("e.transferred_at", (order) => order.desc().nullsLast())
    .orderBy("e.id", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.transfer_id!,
    title: row.title,
    saleReference: row.order_item_id,
    amountCents: row.transferred_cents,
    reversedCents: row.transfer_reversed_cents,
    status: row.status,
    createdAt: row.transferred_at!,
    testMode: row.test_mode === 1,
  }));
}

export interface CreatorPayoutRow extends BalanceCents {
  userId: string;
  email: string;
  firstName: string;
  lastName: string;
  /** The creator's payout account at the configured provider; null when none was set up. */
  accountStatus: PayoutAccountStatus | null;
}

/** Every creator with a sale or a payout account, by earnings (the admin's payouts view). */
export async function payoutsByCreator(
  db: DB,
  scope: SalesScope,
  provider: "stripe" | "test",
): Promise<CreatorPayoutRow[]> {
  const sums = await db
    .selectFrom("earnings as e")
    .select(["e.creator_id", ...balanceColumns()])
    .$if(!scope.includeTestSales, (qb) => qb.where("e.test_mode", "=", 0))
    .groupBy("e.creator_id")
    .execute();
  const byCreator = new Map(sums.map((row) => [row.creator_id, toBalance(row)]));
  const accounts = await db
    .selectFrom("payout_accounts")
    .select(["user_id", "status"])
    .where("provider", "=", provider)
    .execute();
  const accountOf = new Map(accounts.map((row) => [row.user_id, row.status]));
  const ids = [...new Set([...byCreator.keys(), ...accountOf.keys()])];
  if (ids.length === 0) return [];
  const users = await db
    .selectFrom("users")
    .select(["id", "email", "first_name", "last_name"])
    .where("id", "in", ids)
    .execute();
  return users
    .map((user) => ({
      userId: user.id,
      email: user.email,
      firstName: user.first_name,
      lastName: user.last_name,
      accountStatus: accountOf.get(user.id) ?? null,
      ...(byCreator.get(user.id) ?? toBalance(undefined)),
    }))
    .sort((a, b) => b.earned - a.earned || a.email.localeCompare(b.email));
}
