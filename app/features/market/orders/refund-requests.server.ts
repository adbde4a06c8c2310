import { ZodError } from "zod";
import type { OrderRow, RefundRequestRow } from "#db/schema";
import type { DB } from "~/infra/db.server";
import { conflict, notFound } from "~/infra/errors.server";
import { newId } from "~/infra/ids.server";
import { SUPER_ADMIN_ID } from "~/lib/accounts";
import { longDate } from "~/lib/dates";
import { formatMoney } from "~/lib/money";
import { queueMail } from "~/features/mail/public.server";
import { recordAuditEntry } from "~/features/audit/public.server";
import { findOrderById, itemsOfOrder } from "~/features/market/orders/orders.server";
import { lockOrderForRefund } from "~/features/market/orders/refunds.server";
import {
  refundPaidOrder,
  type OrderRefundDeps,
} from "~/features/market/orders/order-refund.server";
import {
  renderRefundDeclinedMail,
  renderRefundRequestedAdminMail,
  renderRefundRequestedCreatorMail,
} from "~/features/market/orders/refund-request-mail.server";
import type {
  AdminRefundRequest,
  BuyerRefundRequest,
  RefundRequestState,
} from "~/features/market/orders/refund-request";

/**
 * Refunds a buyer asks for (decision 089). Within REFUND_WINDOW_DAYS of its
 * payment (`orders.paid_at`, when the payment was recorded as taken) the buyer
 * of a paid order may ask once, with a reason, from their library (the signed
 * library link is the key) or their receipt and the API (their own checkout
 * session is the key); no account is needed. The request is stored with the
 * creators' and the admin's notices in one transaction, so either all of it
 * happened or nothing did; a second request of the same order, one after the
 * window, of an order refunded or disputed, or of an unpaid one is refused
 * with a sentence and changes nothing.
 *
 * The super admin decides: an approval refunds the order through the refund
 * path the Orders view uses (the provider first, then recorded exactly once,
 * the shares reversed and the creators told why), which marks the request
 * `refunded`; any other refund of the whole order (the Orders view, Stripe's
 * dashboard, a fraud warning) marks it so too (refunds.server.ts). A decline
 * mails the admin's reason to the buyer and changes nothing of the order.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** When the order's refund window closes; null for an order never paid. */
export function refundWindowEnd(order: Pick<OrderRow, "paid_at">, windowDays: number): Date | null {
  return order.paid_at ? new Date(Date.parse(order.paid_at) + windowDays * DAY_MS) : null;
}

/** A request as its buyer sees it. */
export function buyerRefundRequest(row: RefundRequestRow): BuyerRefundRequest {
  return {
    status: row.status,
    requestedAt: row.created_at,
    decidedAt: row.decided_at,
    declineReason: row.status === "declined" ? row.decline_reason : null,
  };
}

/** Where an order stands for its buyer: its request, if any, and until when one may be made. */
export interface RefundStanding {
  request: BuyerRefundRequest | null;
  /** Until when a request may still be made (null: it may not be made now). */
  refundableUntil: string | null;
  /** Why a request would be refused now, a sentence (null: it may be made). */
  refusal: string | null;
}

export function refundStanding(
  order: OrderRow,
  request: RefundRequestRow | undefined,
  now: Date,
  windowDays: number,
): RefundStanding {
  const refusal = refusalOf(order, request, now, windowDays);
  return {
    request: request ? buyerRefundRequest(request) : null,
    refundableUntil: refusal ? null : refundWindowEnd(order, windowDays)!.toISOString(),
    refusal,
  };
}

function refusalOf(
  order: OrderRow,
  request: RefundRequestRow | undefined,
  now: Date,
  windowDays: number,
): string | null {
  if (order.status === "refunded" || request?.status === "refunded")
    return "This order was already refunded.";
  if (request?.status === "requested")
    return `A refund of this order was already asked for on ${longDate(request.created_at)}; the admin has not decided yet, and you will be told by email.`;
  if (request?.status === "declined")
    return `A refund of this order was already asked for on ${longDate(request.created_at)} and declined; an order can be asked about once.`;
  if (order.status === "disputed")
    return "This order's payment is disputed with your bank, which decides whether it is refunded.";
  if (order.status !== "paid")
    return `Only a paid order can be refunded; this one is ${order.status}.`;
  if (order.provider === "shopify")
    return "This order was paid in the creator's Shopify store: ask that store for a refund.";
  const end = refundWindowEnd(order, windowDays);
  if (!end || now.getTime() > end.getTime())
    return `Refunds are given on request within ${windowDays} days of payment; this order was paid on ${longDate(order.paid_at ?? order.created_at)}, so that time is over.`;
  return null;
}

/** The order's request, if its buyer made one. */
export function refundRequestOfOrder(db: DB, orderId: string) {
  return db
    .selectFrom("refund_requests")
    .selectAll()
    .where("order_id", "=", orderId)
    .executeTakeFirst();
}

/** The requests of these orders, by order id. */
export async function refundRequestsOfOrders(
  db: DB,
  orderIds: string[],
): Promise<Map<string, RefundRequestRow>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("refund_requests")
    .selectAll()
    .where("order_id", "in", orderIds)
    .execute();
  return new Map(rows.map((row) => [row.order_id, row]));
}

export interface RefundRequestDeps {
  db: DB;
  now: Date;
  windowDays: number;
  /** The server's public address for the admin's link, or null when it has none. */
  origin: string | null;
  /** Who is told when the super admin's own address cannot be read (ADMIN_EMAIL). */
  adminEmail: string;
}

/**
 * The buyer of `order` asks for its refund: 409 with the reason when it may
 * not be asked (nothing changed); otherwise the request, with the creators'
 * and the admin's notices queued in the same transaction.
 */
export async function askForRefund(
  deps: RefundRequestDeps,
  order: OrderRow,
  reason: string,
): Promise<{ id: string; status: "requested" }> {
  const { now, windowDays } = deps;
  const early = refusalOf(order, await refundRequestOfOrder(deps.db, order.id), now, windowDays);
  if (early) throw conflict(early);
  return deps.db.transaction().execute(async (trx) => {
    // Held until the end: a refund recorded meanwhile is seen, and waits for this request.
    const locked = await lockOrderForRefund(trx, order.id);
    if (!locked) throw notFound("Order not found");
    const refused = refusalOf(locked, await refundRequestOfOrder(trx, order.id), now, windowDays);
    if (refused) throw conflict(refused);
    const id = newId();
    const inserted = await trx
      .insertInto("refund_requests")
      .values({ id, order_id: order.id, reason, created_at: now.toISOString() })
      .onConflict((oc) => oc.column("order_id").doNothing())
      .executeTakeFirst();
    if (Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 0)
      throw conflict("A refund of this order was already asked for.");
    await queueRequestNotices(trx, deps, locked);
    return { id, status: "requested" as const };
  });
}

/** The notices of a new request: each creator of its items (not erased or banned) and the super admin. */
async function queueRequestNotices(trx: DB, deps: RefundRequestDeps, order: OrderRow) {
  const items = await itemsOfOrder(trx, order.id);
  const testMode = order.provider === "test";
  const creatorIds = [...new Set(items.map((item) => item.creator_id))];
  const creators =
    creatorIds.length === 0
      ? []
      : await trx
          .selectFrom("users")
          .select(["id", "email", "first_name"])
          .where("id", "in", creatorIds)
          .where("erased_at", "is", null)
          .where("banned", "=", 0)
          .execute();
  for (const creator of creators) {
    await queueNotice(trx, order.id, {
      to: creator.email,
      ...renderRefundRequestedCreatorMail({
        creatorName: creator.first_name,
        requestedAt: deps.now.toISOString(),
        windowDays: deps.windowDays,
        items: items
          .filter((item) => item.creator_id === creator.id)
          .map((item) => ({ saleReference: item.id, title: item.title, style: item.style })),
        testMode,
      }),
      now: deps.now,
    });
  }
  const admin = await trx
    .selectFrom("users")
    .select("email")
    .where("id", "=", SUPER_ADMIN_ID)
    .executeTakeFirst();
  await queueNotice(trx, order.id, {
    to: admin?.email ?? deps.adminEmail,
    ...renderRefundRequestedAdminMail({
      orderId: order.id,
      requestedAt: deps.now.toISOString(),
      paidAt: order.paid_at ?? order.created_at,
      totalCents: order.total_cents,
      currency: order.currency,
      items: items.map((item) => ({ title: item.title, style: item.style })),
      reviewUrl: deps.origin ? `${deps.origin}/admin#refund-requests` : null,
      testMode,
    }),
    now: deps.now,
  });
}

/** Queues a notice; one that could never be sent (a malformed address) must not undo what it tells of. */
async function queueNotice(trx: DB, orderId: string, mail: Parameters<typeof queueMail>[1]) {
  try {
    await queueMail(trx, mail);
  } catch (error) {
    if (!(error instanceof ZodError)) throw error;
    console.warn(`Order ${orderId}: a refund request notice could not be queued: ${error.message}`);
  }
}

/**
 * The admin's list: the requests waiting for a decision, the one waiting
 * longest first, then the decided ones, the newest first (at most 200 of
 * each); `status` narrows it to one state, `id` to one request.
 */
export async function listRefundRequests(
  db: DB,
  filter: { status?: RefundRequestState; id?: string },
): Promise<AdminRefundRequest[]> {
  const base = () => {
    let query = db
      .selectFrom("refund_requests as r")
      .innerJoin("orders as o", "o.id", "r.order_id")
      .select([
        "r.id",
        "r.order_id",
        "r.status",
        "r.reason",
        "r.created_at",
        "r.decided_at",
        "r.decline_reason",
        "o.status as order_status",
        "o.customer_email",
        "o.total_cents",
        "o.currency",
        "o.paid_at",
        "o.provider",
      ]);
    if (filter.status) query = query.where("r.status", "=", filter.status);
    if (filter.id !== undefined) query = query.where("r.id", "=", filter.id);
    return query;
  };
  const [waiting, decided] = await Promise.all([
    base()
      .where("r.status", "=", "requested")
      .orderBy("r.created_at")
      .orderBy("r.id")
      .limit(200)
      .execute(),
    base()
      .where("r.status", "!=", "requested")
      .orderBy("r.created_at", "desc")
      .orderBy("r.id")
      .limit(200)
      .execute(),
  ]);
  const rows = [...waiting, ...decided];
  if (rows.length === 0) return [];
  const items = await db
    .selectFrom("order_items")
    .select(["id", "order_id", "title", "style"])
    .where(
      "order_id",
      "in",
      rows.map((row) => row.order_id),
    )
    .orderBy("position")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    orderId: row.order_id,
    status: row.status,
    reason: row.reason,
    requestedAt: row.created_at,
    decidedAt: row.decided_at,
    declineReason: row.decline_reason,
    orderStatus: row.order_status,
    customerEmail: row.customer_email,
    total: formatMoney(row.total_cents, row.currency),
    paidAt: row.paid_at,
    testMode: row.provider === "test",
    items: items
      .filter((item) => item.order_id === row.order_id)
      .map((item) => ({ title: item.title, style: item.style, saleReference: item.id })),
  }));
}

async function adminViewOf(db: DB, id: string): Promise<AdminRefundRequest> {
  const [view] = await listRefundRequests(db, { id });
  return view;
}

function decidedAlready(row: RefundRequestRow): string {
  return row.status === "refunded"
    ? "This refund request was decided already: the order is refunded."
    : "This refund request was decided already: it was declined.";
}

/** The sentence each creator's share-reversed notice carries when a request is approved. */
export function requestedRefundReason(windowDays: number): string {
  return `The buyer asked for a refund within the ${windowDays} days after payment in which buyers may ask, and it was granted.`;
}

/**
 * The admin approves a waiting request: the order is refunded as the Orders
 * view refunds it (refundPaidOrder: 409 unless it is paid, 502 when the
 * provider refuses, nothing changed), which marks the request refunded.
 */
export async function approveRefundRequest(
  deps: OrderRefundDeps & { windowDays: number },
  request: { id: string; actorId: string },
): Promise<AdminRefundRequest> {
  const row = await deps.db
    .selectFrom("refund_requests")
    .selectAll()
    .where("id", "=", request.id)
    .executeTakeFirst();
  if (!row) throw notFound("Refund request not found");
  if (row.status !== "requested") throw conflict(decidedAlready(row));
  await refundPaidOrder(deps, {
    orderId: row.order_id,
    reason: "Refunded on the buyer's request",
    actorId: request.actorId,
    creatorReason: requestedRefundReason(deps.windowDays),
  });
  return adminViewOf(deps.db, row.id);
}

/**
 * The admin declines a waiting request with a reason: the request is
 * declined, the buyer is mailed the reason, the audit log records it, in one
 * transaction; the order is left as it is. 404 for an unknown request, 409
 * for one decided already.
 */
export async function declineRefundRequest(
  db: DB,
  decline: { id: string; reason: string; actorId: string; now: Date },
): Promise<AdminRefundRequest> {
  await db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom("refund_requests")
      .selectAll()
      .where("id", "=", decline.id)
      .executeTakeFirst();
    if (!row) throw notFound("Refund request not found");
    // The order's row is held as a refund holds it: a refund recorded meanwhile settles the request first.
    await lockOrderForRefund(trx, row.order_id);
    const updated = await trx
      .updateTable("refund_requests")
      .set({
        status: "declined",
        decline_reason: decline.reason,
        decided_at: decline.now.toISOString(),
        decided_by: decline.actorId,
      })
      .where("id", "=", decline.id)
      .where("status", "=", "requested")
      .returningAll()
      .executeTakeFirst();
    if (!updated) {
      const now = await trx
        .selectFrom("refund_requests")
        .selectAll()
        .where("id", "=", decline.id)
        .executeTakeFirstOrThrow();
      throw conflict(decidedAlready(now));
    }
    const order = (await findOrderById(trx, updated.order_id))!;
    const items = await itemsOfOrder(trx, order.id);
    // A buyer whose details were erased (an address at .invalid) is not written to.
    if (!/[@.]invalid$/.test(order.customer_email))
      await queueNotice(trx, order.id, {
        to: order.customer_email,
        ...renderRefundDeclinedMail({
          customerName: order.customer_name,
          orderId: order.id,
          requestedAt: updated.created_at,
          reason: decline.reason,
          items: items.map((item) => ({ title: item.title, style: item.style })),
        }),
        now: decline.now,
      });
    await recordAuditEntry(trx, {
      actorId: decline.actorId,
      action: "refund_request.decline",
      subjectId: updated.id,
      detail: { orderId: order.id },
      now: decline.now,
    });
  });
  return adminViewOf(db, decline.id);
}
