import crypto from "node:crypto";
import { http, HttpResponse } from "msw";
import Stripe from "stripe";

/**
 * api.stripe.com for tests: just enough of Checkout Sessions (create and
 * retrieve) to run the real `stripe` library against, recording every request
 * so tests can assert what was sent. The library talks form-encoded bodies and
 * sends our idempotency key as the Idempotency-Key header.
 */
export interface RecordedStripeRequest {
  method: string;
  path: string;
  idempotencyKey: string | null;
  authorization: string | null;
  form: URLSearchParams;
}

export interface MockSession {
  id: string;
  object: "checkout.session";
  mode: string;
  status: "open" | "complete" | "expired";
  payment_status: "paid" | "unpaid" | "no_payment_required";
  amount_total: number;
  amount_subtotal: number;
  currency: string;
  customer_email: string | null;
  client_reference_id: string | null;
  metadata: Record<string, string>;
  success_url: string;
  cancel_url: string;
  url: string | null;
  created: number;
}

export const stripeMock = {
  requests: [] as RecordedStripeRequest[],
  sessions: new Map<string, MockSession>(),
  /** Answers by idempotency key, as Stripe does for a retried create. */
  byIdempotencyKey: new Map<string, string>(),
  failCreate: false as boolean,
  reset() {
    this.requests = [];
    this.sessions.clear();
    this.byIdempotencyKey.clear();
    this.failCreate = false;
  },
  /** The buyer paid on Stripe's page. */
  complete(sessionId: string, paymentStatus: MockSession["payment_status"] = "paid") {
    const session = this.sessions.get(sessionId)!;
    session.status = "complete";
    session.payment_status = paymentStatus;
    session.url = null;
    return session;
  },
  expire(sessionId: string) {
    const session = this.sessions.get(sessionId)!;
    session.status = "expired";
    session.url = null;
    return session;
  },
  session(sessionId: string): MockSession {
    return this.sessions.get(sessionId)!;
  },
};

function lineItemsOf(form: URLSearchParams) {
  const items: { amount: number; quantity: number; name: string; currency: string }[] = [];
  for (let i = 0; form.has(`line_items[${i}][quantity]`); i++) {
    items.push({
      amount: Number(form.get(`line_items[${i}][price_data][unit_amount]`)),
      quantity: Number(form.get(`line_items[${i}][quantity]`)),
      name: form.get(`line_items[${i}][price_data][product_data][name]`) ?? "",
      currency: form.get(`line_items[${i}][price_data][currency]`) ?? "",
    });
  }
  return items;
}

export { lineItemsOf };

function stripeError(status: number, message: string) {
  return HttpResponse.json({ error: { type: "invalid_request_error", message } }, { status });
}

async function record(request: Request, path: string): Promise<RecordedStripeRequest> {
  const text = request.method === "GET" ? new URL(request.url).search.slice(1) : await request.text();
  const entry = {
    method: request.method,
    path,
    idempotencyKey: request.headers.get("Idempotency-Key"),
    authorization: request.headers.get("Authorization"),
    form: new URLSearchParams(text),
  };
  stripeMock.requests.push(entry);
  return entry;
}

export const stripeHandlers = [
  http.post("https://api.stripe.com/v1/checkout/sessions", async ({ request }) => {
    const entry = await record(request, "/v1/checkout/sessions");
    if (!entry.authorization?.startsWith("Bearer sk_test_")) return stripeError(401, "Invalid API Key provided");
    if (stripeMock.failCreate) return stripeError(400, "Something is wrong with this request");
    const replay = entry.idempotencyKey ? stripeMock.byIdempotencyKey.get(entry.idempotencyKey) : undefined;
    if (replay) return HttpResponse.json(stripeMock.sessions.get(replay));
    const form = entry.form;
    const items = lineItemsOf(form);
    const total = items.reduce((sum, item) => sum + item.amount * item.quantity, 0);
    const id = `cs_test_${crypto.randomBytes(24).toString("base64url")}`;
    const session: MockSession = {
      id,
      object: "checkout.session",
      mode: form.get("mode") ?? "",
      status: "open",
      payment_status: "unpaid",
      amount_total: total,
      amount_subtotal: total,
      currency: items[0]?.currency ?? "usd",
      customer_email: form.get("customer_email"),
      client_reference_id: form.get("client_reference_id"),
      metadata: { order_id: form.get("metadata[order_id]") ?? "" },
      success_url: form.get("success_url") ?? "",
      cancel_url: form.get("cancel_url") ?? "",
      url: `https://checkout.stripe.com/c/pay/${id}`,
      created: Math.floor(Date.now() / 1000),
    };
    stripeMock.sessions.set(id, session);
    if (entry.idempotencyKey) stripeMock.byIdempotencyKey.set(entry.idempotencyKey, id);
    return HttpResponse.json(session);
  }),
  http.get("https://api.stripe.com/v1/checkout/sessions/:id", async ({ request, params }) => {
    await record(request, `/v1/checkout/sessions/${String(params.id)}`);
    const session = stripeMock.sessions.get(String(params.id));
    if (!session) return stripeError(404, `No such checkout.session: '${String(params.id)}'`);
    return HttpResponse.json(session);
  }),
];

/** A Stripe event wrapping a Checkout Session, as the webhook receives it. */
export function checkoutEvent(type: string, session: object, id = `evt_${crypto.randomBytes(12).toString("hex")}`) {
  return JSON.stringify({
    id,
    object: "event",
    api_version: "2026-10-28.endive",
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object: session },
  });
}

/** The Stripe-Signature header Stripe would send for this payload (the library's own test helper). */
export function signPayload(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}
