import crypto from "node:crypto";
import path from "node:path";
import { expect } from "@playwright/test";
import { checkoutEvent, signPayload, type MockSession } from "../../mocks/stripe";
import { DirectoryMap } from "./directory-map";
import { ROOT, startServer, type RunningServer } from "./server-process";

/**
 * A server process in Stripe mode: real `stripe` library, api.stripe.com
 * answered by msw inside the process (stripe-preload.ts), the mock's sessions
 * kept in a directory this test shares with it.
 */
export const WEBHOOK_SECRET = "whsec_process_tests";

export interface StripeWorld {
  mockDir: string;
  sessions: DirectoryMap<MockSession>;
  /**
   * A server on the world's port and data directory, or on others given here (several servers
   * sharing one Stripe mock, each with its own port).
   */
  start: (options: {
    seed: boolean;
    env?: Record<string, string>;
    port?: number;
    dataDir?: string;
  }) => Promise<RunningServer>;
}

export function stripeWorld(scratch: string, port: number): StripeWorld {
  const mockDir = path.join(scratch, "stripe");
  return {
    mockDir,
    sessions: new DirectoryMap<MockSession>(path.join(mockDir, "sessions")),
    start: ({ seed, env, port: serverPort = port, dataDir = path.join(scratch, "data") }) =>
      startServer({
        dataDir,
        port: serverPort,
        seed,
        nodeArgs: [
          "--import",
          "tsx",
          "--import",
          path.join(ROOT, "tests/process/support/stripe-preload.ts"),
        ],
        env: {
          STRIPE_SECRET_KEY: "sk_test_process",
          STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
          STRIPE_MOCK_DIR: mockDir,
          PUBLIC_URL: `http://localhost:${serverPort}`,
          ...env,
        },
      }),
  };
}

export interface PlacedOrder {
  sessionId: string;
  orderId: string;
  listingIds: string[];
}

export async function listingIds(server: RunningServer): Promise<string[]> {
  const response = await server.fetch("/api/marketplace?limit=100");
  expect(response.status).toBe(200);
  const { items } = (await response.json()) as { items: Array<{ id: string }> };
  expect(items.length).toBeGreaterThanOrEqual(3);
  return items.map((item) => item.id);
}

/** A cart of the given listings through POST /api/create-checkout-session (a Stripe session). */
export async function placeOrder(
  server: RunningServer,
  ids: string[],
  email: string,
): Promise<PlacedOrder> {
  const response = await server.fetch("/api/create-checkout-session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      cartItems: ids.map((imageId) => ({ imageId, licenseType: "standard" })),
      customerInfo: { name: "Process Buyer", email },
    }),
  });
  expect(response.status).toBe(200);
  const { sessionId, url } = (await response.json()) as { sessionId: string; url: string };
  expect(sessionId).toMatch(/^cs_test_/);
  expect(url).toMatch(/^https:\/\/checkout\.stripe\.com\//);
  const [{ id: orderId }] = server.query<{ id: string }>(
    "select id from orders where checkout_session_hash = ?",
    crypto.createHash("sha256").update(sessionId).digest("hex"),
  );
  return { sessionId, orderId, listingIds: ids };
}

/** The buyer paid on Stripe's page. */
export function payAtStripe(world: StripeWorld, sessionId: string): MockSession {
  const session = world.sessions.get(sessionId);
  if (!session) throw new Error(`Stripe knows no session ${sessionId}`);
  const paid = {
    ...session,
    status: "complete" as const,
    payment_status: "paid" as const,
    url: null,
  };
  world.sessions.set(sessionId, paid);
  return paid;
}

/** A signed webhook delivery of one event (the same id for Stripe's retries of it). */
export function deliverEvent(
  server: RunningServer,
  type: string,
  session: MockSession,
  eventId: string,
): Promise<Response> {
  const payload = checkoutEvent(type, session, eventId);
  return server.fetch("/api/webhooks/stripe", {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "Stripe-Signature": signPayload(payload, WEBHOOK_SECRET),
    },
    body: payload,
  });
}

/** The buyer's browser coming back from Stripe: the success return. */
export function successReturn(server: RunningServer, sessionId: string): Promise<Response> {
  return server.fetch(`/marketplace?session_id=${encodeURIComponent(sessionId)}&success=true`, {
    redirect: "manual",
  });
}

export interface LedgerCheck {
  order: string;
  status: string;
  items: number;
  earnings: number;
  grants: number;
}

/** Per order: its status and how many ledger rows and download grants it has; and the sums. */
export function ledgerOf(server: RunningServer, orderIds: string[]) {
  const rows = orderIds.map((id) => {
    const [row] = server.query<LedgerCheck>(
      `select o.id as "order", o.status as status,
        (select count(*) from order_items i where i.order_id = o.id) as items,
        (select count(*) from earnings e where e.order_id = o.id) as earnings,
        (select count(*) from download_grants g join order_items i on i.id = g.order_item_id where i.order_id = o.id) as grants
       from orders o where o.id = ?`,
      id,
    );
    return row;
  });
  const [sums] = server.query<{ revenue: number; ledger: number; items: number }>(
    `select (select coalesce(sum(total_cents), 0) from orders where status = 'paid') as revenue,
      (select coalesce(sum(amount_cents + platform_fee_cents), 0) from earnings) as ledger,
      (select coalesce(sum(i.price_cents), 0) from order_items i join orders o on o.id = i.order_id where o.status = 'paid') as items`,
  );
  return { rows, ...sums };
}
