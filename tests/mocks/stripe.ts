import crypto from "node:crypto";
import { http, HttpResponse } from "msw";
import Stripe from "stripe";
import {
  CROSS_BORDER_COUNTRIES,
  SETTLEMENT_CURRENCY,
  payoutCountryRule,
} from "~/lib/payout-countries";

/**
 * api.stripe.com for tests: enough of Checkout Sessions, PaymentIntents,
 * Charges, Refunds and Connect (Express accounts, account and login links,
 * transfers and their reversals) to run the real `stripe` library against,
 * recording every request so tests can assert what was sent. The library
 * talks form-encoded bodies and sends our idempotency key as the
 * Idempotency-Key header.
 *
 * Like Stripe, a POST repeating an Idempotency-Key answers the saved first
 * response (with Idempotent-Replayed: true) and changes nothing, and the same
 * key sent to another endpoint or with other parameters is refused with a 400
 * idempotency_error. Only results of requests that ran are saved: a request
 * refused for its parameters (a 4xx) saves nothing and may be sent again.
 *
 * Like Stripe, saved responses are kept 24 hours (of `stripeMock.clock`, a
 * clock tests can move): after that the same key runs the request again.
 *
 * Connect follows Stripe's country rules (the table in app/lib/payout-countries.ts): an
 * account in another country than the platform (`stripeMock.platform`) needs
 * the `recipient` service agreement, which only a platform in the
 * cross-border region may use, for a country in that region; a transfer to a
 * cross-border account under the full agreement is refused; the platform
 * holds its settlement currency only, so a transfer in another one is refused
 * for insufficient funds.
 *
 * The state lives in Map-like stores on `stripeMock`. Every change is written
 * back with `set` (never only by mutating what `get` returned), so a server
 * process can swap a store for a DirectoryMap (tests/process/support/stripe-preload.ts)
 * and share the state with the test that started it.
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
  /** The PaymentIntent that paid the session; null before payment. */
  payment_intent: string | null;
  success_url: string;
  cancel_url: string;
  url: string | null;
  created: number;
  /** Stripe Tax on the session (automatic_tax[enabled]), its liable account and the calculation's status. */
  automatic_tax: {
    enabled: boolean;
    liability: { type: string } | null;
    status: "complete" | "failed" | "requires_location_inputs" | null;
  };
  billing_address_collection: "auto" | "required" | null;
  /** The discount, shipping and tax of the session's total. */
  total_details: { amount_discount: number; amount_shipping: number; amount_tax: number };
  /** What the buyer entered on Stripe's page; null until they did. */
  customer_details: {
    address: {
      city: string | null;
      country: string | null;
      line1: string | null;
      line2: string | null;
      postal_code: string | null;
      state: string | null;
    } | null;
    email: string | null;
    name: string | null;
    phone: string | null;
    tax_exempt: "exempt" | "none" | "reverse";
    tax_ids: { type: string; value: string }[];
  } | null;
}

export type CapabilityStatus = "active" | "inactive" | "pending";

export interface MockAccount {
  id: string;
  object: "account";
  type: "express" | "standard" | "custom";
  email: string | null;
  country: string;
  default_currency: string;
  tos_acceptance: { service_agreement: "full" | "recipient" };
  metadata: Record<string, string>;
  capabilities: Record<string, CapabilityStatus>;
  charges_enabled: boolean;
  payouts_enabled: boolean;
  details_submitted: boolean;
  requirements: {
    current_deadline: number | null;
    currently_due: string[];
    eventually_due: string[];
    past_due: string[];
    pending_verification: string[];
    errors: unknown[];
    disabled_reason: string | null;
  };
  created: number;
}

export interface MockPaymentIntent {
  id: string;
  object: "payment_intent";
  amount: number;
  amount_received: number;
  currency: string;
  status: "succeeded";
  latest_charge: string;
  metadata: Record<string, string>;
  payment_method_types: string[];
  transfer_group: string | null;
  livemode: false;
  created: number;
}

export interface MockCharge {
  id: string;
  object: "charge";
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  balance_transaction: string;
  captured: true;
  paid: true;
  refunded: boolean;
  disputed: boolean;
  status: "succeeded";
  currency: string;
  payment_intent: string;
  metadata: Record<string, string>;
  transfer_group: string | null;
  livemode: false;
  created: number;
}

export interface MockTransferReversal {
  id: string;
  object: "transfer_reversal";
  amount: number;
  balance_transaction: string;
  currency: string;
  destination_payment_refund: string;
  metadata: Record<string, string>;
  source_refund: string | null;
  transfer: string;
  created: number;
}

export interface MockTransfer {
  id: string;
  object: "transfer";
  amount: number;
  amount_reversed: number;
  balance_transaction: string;
  currency: string;
  description: string | null;
  destination: string;
  destination_payment: string;
  livemode: false;
  metadata: Record<string, string>;
  reversals: {
    object: "list";
    data: MockTransferReversal[];
    has_more: false;
    total_count: number;
    url: string;
  };
  reversed: boolean;
  source_transaction: string | null;
  source_type: "card";
  transfer_group: string | null;
  created: number;
}

export interface MockRefund {
  id: string;
  object: "refund";
  amount: number;
  balance_transaction: string;
  charge: string;
  currency: string;
  metadata: Record<string, string>;
  payment_intent: string;
  reason: string | null;
  receipt_number: null;
  source_transfer_reversal: null;
  status: "succeeded" | "pending" | "failed";
  failure_reason?: string;
  transfer_reversal: null;
  created: number;
}

export type DisputeStatus =
  | "warning_needs_response"
  | "warning_under_review"
  | "warning_closed"
  | "needs_response"
  | "under_review"
  | "won"
  | "lost"
  | "prevented"
  | "appeal_needs_response"
  | "appeal_under_review";

export interface MockDispute {
  id: string;
  object: "dispute";
  amount: number;
  balance_transactions: unknown[];
  charge: string;
  currency: string;
  evidence_details: {
    due_by: number;
    has_evidence: boolean;
    past_due: boolean;
    submission_count: number;
  };
  is_charge_refundable: boolean;
  livemode: false;
  metadata: Record<string, string>;
  payment_intent: string | null;
  reason: string;
  status: DisputeStatus;
  created: number;
}

/** The first response to an Idempotency-Key, answered again to a repeat of the same request. */
export interface IdempotentResponse {
  method: string;
  path: string;
  /** The request's parameters, sorted, to tell a repeat from another request reusing the key. */
  params: string;
  status: number;
  body: unknown;
  /** When the request ran (seconds of the mock's clock): Stripe forgets the key 24 hours later. */
  createdAt: number;
}

/** How long Stripe keeps an idempotency key's first response. */
export const IDEMPOTENCY_KEY_SECONDS = 24 * 3600;

export const stripeMock = {
  /** The mock's clock (ms since the epoch); tests move it to let idempotency keys expire. */
  clock: (() => Date.now()) as () => number,
  /** The platform's Stripe account: its country and the one currency its balance holds. */
  platform: { country: "US", currency: "usd" },
  requests: [] as RecordedStripeRequest[],
  sessions: new Map<string, MockSession>(),
  /** Saved first responses by Idempotency-Key, as Stripe keeps them. */
  byIdempotencyKey: new Map<string, IdempotentResponse>(),
  accounts: new Map<string, MockAccount>(),
  paymentIntents: new Map<string, MockPaymentIntent>(),
  charges: new Map<string, MockCharge>(),
  transfers: new Map<string, MockTransfer>(),
  reversals: new Map<string, MockTransferReversal>(),
  refunds: new Map<string, MockRefund>(),
  /** The dispute of each charge, by charge id (a charge has at most one). */
  disputesByCharge: new Map<string, MockDispute>(),
  failCreate: false as boolean,
  reset() {
    this.requests = [];
    for (const store of [
      this.sessions,
      this.byIdempotencyKey,
      this.accounts,
      this.paymentIntents,
      this.charges,
      this.transfers,
      this.reversals,
      this.refunds,
      this.disputesByCharge,
    ]) {
      store.clear();
    }
    this.failCreate = false;
    this.clock = () => Date.now();
    this.platform = { country: "US", currency: "usd" };
  },
  /** The buyer paid on Stripe's page: when paid, the session gets a PaymentIntent and its charge. */
  complete(
    sessionId: string,
    paymentStatus: MockSession["payment_status"] = "paid",
    /** The buyer's billing country, and the tax Stripe Tax added for it (automatic tax on): the total grows by it. */
    buyer: { country?: string; taxCents?: number } = {},
  ): MockSession {
    const session = this.session(sessionId);
    session.status = "complete";
    session.customer_details = {
      address: buyer.country
        ? {
            city: null,
            country: buyer.country,
            line1: null,
            line2: null,
            postal_code: null,
            state: null,
          }
        : null,
      email: session.customer_email,
      name: null,
      phone: null,
      tax_exempt: "none",
      tax_ids: [],
    };
    if (buyer.taxCents !== undefined) {
      if (!session.automatic_tax.enabled)
        throw new Error("Stripe Tax adds tax only to a session with automatic_tax[enabled]");
      session.total_details.amount_tax = buyer.taxCents;
      session.amount_total = session.amount_subtotal + buyer.taxCents;
      session.automatic_tax.status = "complete";
    }
    session.payment_status = paymentStatus;
    session.url = null;
    if (paymentStatus === "paid" && !session.payment_intent) {
      session.payment_intent = this.pay({
        amount: session.amount_total,
        currency: session.currency,
        metadata: session.metadata,
      }).paymentIntent.id;
    }
    this.sessions.set(sessionId, session);
    return session;
  },
  expire(sessionId: string): MockSession {
    const session = this.session(sessionId);
    session.status = "expired";
    session.url = null;
    this.sessions.set(sessionId, session);
    return session;
  },
  session(sessionId: string): MockSession {
    const session = this.sessions.get(sessionId);
    if (!session) throw new Error(`The Stripe mock has no session ${sessionId}`);
    return session;
  },
  /** A succeeded PaymentIntent and its charge (what paying a Checkout Session makes). */
  pay(payment: { amount: number; currency: string; metadata?: Record<string, string> }): {
    paymentIntent: MockPaymentIntent;
    charge: MockCharge;
  } {
    const created = now();
    const metadata = { ...payment.metadata };
    const paymentIntentId = stripeId("pi_");
    const charge: MockCharge = {
      id: stripeId("ch_"),
      object: "charge",
      amount: payment.amount,
      amount_captured: payment.amount,
      amount_refunded: 0,
      balance_transaction: stripeId("txn_"),
      captured: true,
      paid: true,
      refunded: false,
      disputed: false,
      status: "succeeded",
      currency: payment.currency,
      payment_intent: paymentIntentId,
      metadata,
      transfer_group: null,
      livemode: false,
      created,
    };
    const paymentIntent: MockPaymentIntent = {
      id: paymentIntentId,
      object: "payment_intent",
      amount: payment.amount,
      amount_received: payment.amount,
      currency: payment.currency,
      status: "succeeded",
      latest_charge: charge.id,
      metadata,
      payment_method_types: ["card"],
      transfer_group: null,
      livemode: false,
      created,
    };
    this.charges.set(charge.id, charge);
    this.paymentIntents.set(paymentIntent.id, paymentIntent);
    return { paymentIntent, charge };
  },
  /** The creator finished Stripe's onboarding and was verified: transfers and payouts work. */
  onboard(accountId: string): MockAccount {
    const account = this.account(accountId);
    account.details_submitted = true;
    account.charges_enabled = true;
    account.payouts_enabled = true;
    account.capabilities = { ...account.capabilities, transfers: "active" };
    account.requirements = {
      ...account.requirements,
      current_deadline: null,
      currently_due: [],
      eventually_due: [],
      past_due: [],
      disabled_reason: null,
    };
    this.accounts.set(accountId, account);
    return account;
  },
  /** Stripe needs more from the creator (after onboarding): transfers and payouts stop. */
  restrict(accountId: string, disabledReason = "requirements.past_due"): MockAccount {
    const account = this.account(accountId);
    const due = ["individual.verification.document"];
    account.details_submitted = true;
    account.charges_enabled = false;
    account.payouts_enabled = false;
    account.capabilities = { ...account.capabilities, transfers: "inactive" };
    account.requirements = {
      ...account.requirements,
      currently_due: due,
      eventually_due: due,
      past_due: due,
      disabled_reason: disabledReason,
    };
    this.accounts.set(accountId, account);
    return account;
  },
  account(accountId: string): MockAccount {
    const account = this.accounts.get(accountId);
    if (!account) throw new Error(`The Stripe mock has no account ${accountId}`);
    return account;
  },
};

function now(): number {
  return Math.floor(stripeMock.clock() / 1000);
}

const ID_ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** An id as Stripe makes them: the object's prefix and 24 letters and digits. */
function stripeId(prefix: string): string {
  const bytes = crypto.randomBytes(24);
  return prefix + Array.from(bytes, (byte) => ID_ALPHABET[byte % ID_ALPHABET.length]).join("");
}

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

/** The `metadata[key]=value` parameters of a form. */
function metadataOf(form: URLSearchParams): Record<string, string> {
  const metadata: Record<string, string> = {};
  for (const [name, value] of form) {
    const key = /^metadata\[(.+)\]$/.exec(name)?.[1];
    if (key !== undefined) metadata[key] = value;
  }
  return metadata;
}

interface StripeErrorDetails {
  type?: "invalid_request_error" | "idempotency_error";
  code?: string;
  param?: string;
}

/** Stripe's error body: { error: { type, message, code?, param? } }. */
function errorBody(message: string, details: StripeErrorDetails = {}) {
  const { type = "invalid_request_error", code, param } = details;
  return { error: { type, message, ...(code ? { code } : {}), ...(param ? { param } : {}) } };
}

function stripeError(status: number, message: string, details: StripeErrorDetails = {}) {
  return HttpResponse.json(errorBody(message, details), { status });
}

async function record(request: Request, path: string): Promise<RecordedStripeRequest> {
  const text =
    request.method === "GET" ? new URL(request.url).search.slice(1) : await request.text();
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

/** What an endpoint answers: a status and a JSON body. */
interface Outcome {
  status: number;
  body: unknown;
}

function ok(body: unknown): Outcome {
  return { status: 200, body };
}

function refused(status: number, message: string, details: StripeErrorDetails = {}): Outcome {
  return { status, body: errorBody(message, details) };
}

function missingParam(param: string): Outcome {
  return refused(400, `Missing required param: ${param}.`, { code: "parameter_missing", param });
}

function noSuch(objectName: string, id: string, param: string, status = 400): Outcome {
  return refused(status, `No such ${objectName}: '${id}'`, { code: "resource_missing", param });
}

/** A positive whole amount in cents, or null when the parameter is not one. */
function positiveAmount(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value)) return null;
  const amount = Number(value);
  return Number.isSafeInteger(amount) && amount > 0 ? amount : null;
}

function invalidAmount(): Outcome {
  return refused(400, "Invalid positive integer", {
    code: "parameter_invalid_integer",
    param: "amount",
  });
}

/**
 * The amount the form asks to take back of what is `left` (all of it without one), or the
 * refusal of an invalid one or of one over what is left (`tooLarge` words it).
 */
function amountToTakeBack(
  form: URLSearchParams,
  left: number,
  tooLarge: (amount: number) => string,
): number | Outcome {
  const requested = form.get("amount");
  const amount = requested === null ? left : positiveAmount(requested);
  if (amount === null) return invalidAmount();
  if (amount > left) return refused(400, tooLarge(amount), { param: "amount" });
  return amount;
}

/** An amount as Stripe words it in messages, e.g. $12.50 for 1250 usd. */
function money(cents: number, currency: string): string {
  return currency === "usd"
    ? `$${(cents / 100).toFixed(2)}`
    : `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;
}

function paramsOf(form: URLSearchParams): string {
  return JSON.stringify(
    [...form].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : x > y ? 1 : 0) : a < b ? -1 : 1)),
  );
}

/**
 * Runs a POST once per Idempotency-Key: a repeat of the same request answers
 * the saved first response; the key reused for another request is refused.
 */
function idempotent(entry: RecordedStripeRequest, execute: () => Outcome) {
  const key = entry.idempotencyKey;
  const params = paramsOf(entry.form);
  const headers: Record<string, string> = { "Request-Id": stripeId("req_") };
  if (key) {
    headers["Idempotency-Key"] = key;
    let first = stripeMock.byIdempotencyKey.get(key);
    if (first && now() - first.createdAt >= IDEMPOTENCY_KEY_SECONDS) {
      // Stripe keeps a key 24 hours: after that the request runs again.
      stripeMock.byIdempotencyKey.delete(key);
      first = undefined;
    }
    if (first) {
      if (first.method !== entry.method || first.path !== entry.path || first.params !== params) {
        return HttpResponse.json(
          errorBody(
            `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            { type: "idempotency_error" },
          ),
          { status: 400, headers },
        );
      }
      return HttpResponse.json(first.body as Record<string, unknown>, {
        status: first.status,
        headers: { ...headers, "Idempotent-Replayed": "true" },
      });
    }
  }
  const outcome = execute();
  if (key && outcome.status < 400) {
    stripeMock.byIdempotencyKey.set(key, {
      method: entry.method,
      path: entry.path,
      params,
      status: outcome.status,
      body: outcome.body,
      createdAt: now(),
    });
  }
  return HttpResponse.json(outcome.body as Record<string, unknown>, {
    status: outcome.status,
    headers,
  });
}

/** A 401 for a request without a test secret key, else null. */
function unauthorized(entry: RecordedStripeRequest) {
  return entry.authorization?.startsWith("Bearer sk_test_")
    ? null
    : stripeError(401, "Invalid API Key provided");
}

const API = "https://api.stripe.com/v1";

function createSession(form: URLSearchParams): Outcome {
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
    payment_intent: null,
    success_url: form.get("success_url") ?? "",
    cancel_url: form.get("cancel_url") ?? "",
    url: `https://checkout.stripe.com/c/pay/${id}`,
    created: now(),
    automatic_tax: {
      enabled: form.get("automatic_tax[enabled]") === "true",
      liability: form.get("automatic_tax[liability][type]")
        ? { type: form.get("automatic_tax[liability][type]")! }
        : null,
      status: form.get("automatic_tax[enabled]") === "true" ? "requires_location_inputs" : null,
    },
    billing_address_collection:
      (form.get("billing_address_collection") as MockSession["billing_address_collection"]) ?? null,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    customer_details: null,
  };
  stripeMock.sessions.set(id, session);
  return ok(session);
}

/** A new connected account: nothing submitted yet, so Stripe has disabled it until onboarding. */
function createAccount(form: URLSearchParams): Outcome {
  const type = form.get("type");
  if (!type) return missingParam("type");
  if (type !== "express" && type !== "standard" && type !== "custom") {
    return refused(400, `Invalid type: must be one of custom, express, or standard`, {
      code: "parameter_invalid_string",
      param: "type",
    });
  }
  const capabilities: Record<string, CapabilityStatus> = {};
  for (const [name, value] of form) {
    const capability = /^capabilities\[(\w+)\]\[requested\]$/.exec(name)?.[1];
    if (capability && value === "true") capabilities[capability] = "inactive";
  }
  const platform = stripeMock.platform;
  const country = (form.get("country") ?? platform.country).toUpperCase();
  const agreement = form.get("tos_acceptance[service_agreement]") ?? "full";
  if (agreement !== "full" && agreement !== "recipient") {
    return refused(
      400,
      "Invalid tos_acceptance[service_agreement]: must be one of full or recipient",
      { code: "parameter_invalid_string", param: "tos_acceptance[service_agreement]" },
    );
  }
  if (!payoutCountryRule(platform.country, country).payable) {
    // Stripe's own words for it (as creators of other platforms have been shown them).
    return refused(
      400,
      `Connected accounts in ${country} cannot be created by platforms in ${platform.country}. Please contact us via https://support.stripe.com/contact if you need further assistance.`,
      { param: "country" },
    );
  }
  if (agreement === "recipient") {
    if (!CROSS_BORDER_COUNTRIES.includes(platform.country)) {
      return refused(
        400,
        `The recipient service agreement is not available to platforms in ${platform.country}.`,
        { param: "tos_acceptance[service_agreement]" },
      );
    }
    if ("card_payments" in capabilities) {
      return refused(
        400,
        "Accounts under the recipient service agreement cannot request the card_payments capability.",
        { param: "capabilities" },
      );
    }
  }
  const due = ["business_type", "external_account", "tos_acceptance.date", "tos_acceptance.ip"];
  const account: MockAccount = {
    id: stripeId("acct_"),
    object: "account",
    type,
    email: form.get("email"),
    country,
    default_currency: SETTLEMENT_CURRENCY[country] ?? platform.currency,
    tos_acceptance: { service_agreement: agreement },
    metadata: metadataOf(form),
    capabilities,
    charges_enabled: false,
    payouts_enabled: false,
    details_submitted: false,
    requirements: {
      current_deadline: null,
      currently_due: due,
      eventually_due: due,
      past_due: due,
      pending_verification: [],
      errors: [],
      disabled_reason: "requirements.past_due",
    },
    created: now(),
  };
  stripeMock.accounts.set(account.id, account);
  return ok(account);
}

function createAccountLink(form: URLSearchParams): Outcome {
  const accountId = form.get("account");
  if (!accountId) return missingParam("account");
  const type = form.get("type");
  if (!type) return missingParam("type");
  if (type !== "account_onboarding" && type !== "account_update") {
    return refused(400, "Invalid type: must be one of account_onboarding or account_update", {
      code: "parameter_invalid_string",
      param: "type",
    });
  }
  if (!stripeMock.accounts.has(accountId)) return noSuch("account", accountId, "account");
  const created = now();
  return ok({
    object: "account_link",
    created,
    expires_at: created + 300,
    url: `https://connect.stripe.com/setup/e/${accountId}/${stripeId("")}`,
  });
}

function createLoginLink(accountId: string): Outcome {
  const account = stripeMock.accounts.get(accountId);
  if (!account) return noSuch("account", accountId, "account", 404);
  if (account.type !== "express")
    return refused(
      400,
      "You can only create login links for Express accounts connected to your platform.",
      { param: "account" },
    );
  if (!account.details_submitted)
    return refused(
      400,
      "Cannot create a login link for an account that has not completed onboarding.",
      { param: "account" },
    );
  return ok({
    object: "login_link",
    created: now(),
    url: `https://connect.stripe.com/express/${stripeId("")}`,
  });
}

function createTransfer(form: URLSearchParams): Outcome {
  if (!form.get("amount")) return missingParam("amount");
  const currency = form.get("currency");
  if (!currency) return missingParam("currency");
  const destination = form.get("destination");
  if (!destination) return missingParam("destination");
  const amount = positiveAmount(form.get("amount"));
  if (amount === null) return invalidAmount();
  const account = stripeMock.accounts.get(destination);
  if (!account) return noSuch("destination", destination, "destination");
  if (account.capabilities.transfers !== "active") {
    return refused(
      400,
      "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments",
      {
        code: "insufficient_capabilities_for_transfer",
        param: "destination",
      },
    );
  }
  if (
    account.country !== stripeMock.platform.country &&
    account.tos_acceptance.service_agreement !== "recipient"
  ) {
    return refused(
      400,
      `Funds can't be sent to accounts located in ${account.country} because it's restricted outside of your platform's region. Accounts in another country than the platform need the recipient service agreement.`,
      { code: "transfers_not_allowed", param: "destination" },
    );
  }
  if (currency !== stripeMock.platform.currency) {
    return refused(
      400,
      `You have insufficient available funds in your Stripe account: your balance holds no ${currency}.`,
      { code: "balance_insufficient", param: "currency" },
    );
  }
  const sourceTransaction = form.get("source_transaction");
  if (sourceTransaction) {
    const charge = stripeMock.charges.get(sourceTransaction);
    if (!charge) return noSuch("charge", sourceTransaction, "source_transaction");
    if (charge.currency !== currency) {
      return refused(
        400,
        `The currency of source_transaction's balance transaction (${charge.currency}) must be the same as the transfer currency (${currency})`,
        { param: "currency" },
      );
    }
    if (amount > charge.amount) {
      return refused(
        400,
        `Transfer amount (${money(amount, currency)}) exceeds the amount of the source transaction (${money(charge.amount, currency)})`,
        { param: "amount" },
      );
    }
  }
  const id = stripeId("tr_");
  const transfer: MockTransfer = {
    id,
    object: "transfer",
    amount,
    amount_reversed: 0,
    balance_transaction: stripeId("txn_"),
    currency,
    description: form.get("description"),
    destination,
    destination_payment: stripeId("py_"),
    livemode: false,
    metadata: metadataOf(form),
    reversals: {
      object: "list",
      data: [],
      has_more: false,
      total_count: 0,
      url: `/v1/transfers/${id}/reversals`,
    },
    reversed: false,
    source_transaction: sourceTransaction,
    source_type: "card",
    transfer_group: form.get("transfer_group"),
    created: now(),
  };
  stripeMock.transfers.set(id, transfer);
  return ok(transfer);
}

/** A reversal of (part of) what is left of a transfer; without an amount, all of it. */
function createReversal(transferId: string, form: URLSearchParams): Outcome {
  const transfer = stripeMock.transfers.get(transferId);
  if (!transfer) return noSuch("transfer", transferId, "id", 404);
  const left = transfer.amount - transfer.amount_reversed;
  if (left === 0)
    return refused(400, `Transfer ${transferId} has already been fully reversed.`, {
      param: "amount",
    });
  const amount = amountToTakeBack(
    form,
    left,
    (asked) =>
      `Reversal amount (${money(asked, transfer.currency)}) is greater than the unreversed amount on the transfer (${money(left, transfer.currency)})`,
  );
  if (typeof amount !== "number") return amount;
  const reversal: MockTransferReversal = {
    id: stripeId("trr_"),
    object: "transfer_reversal",
    amount,
    balance_transaction: stripeId("txn_"),
    currency: transfer.currency,
    destination_payment_refund: stripeId("pyr_"),
    metadata: metadataOf(form),
    source_refund: null,
    transfer: transferId,
    created: now(),
  };
  transfer.amount_reversed += amount;
  transfer.reversed = transfer.amount_reversed === transfer.amount;
  transfer.reversals = {
    ...transfer.reversals,
    data: [reversal, ...transfer.reversals.data],
    total_count: transfer.reversals.total_count + 1,
  };
  stripeMock.reversals.set(reversal.id, reversal);
  stripeMock.transfers.set(transferId, transfer);
  return ok(reversal);
}

/** A refund of (part of) what is left of a charge, named directly or by its PaymentIntent; without an amount, all of it. */
function createRefund(form: URLSearchParams): Outcome {
  const chargeParam = form.get("charge");
  const paymentIntentParam = form.get("payment_intent");
  if (!chargeParam && !paymentIntentParam) {
    return refused(
      400,
      "One of the following params should be provided for this request: payment_intent or charge.",
      { code: "parameter_missing" },
    );
  }
  let chargeId = chargeParam;
  if (paymentIntentParam) {
    const intent = stripeMock.paymentIntents.get(paymentIntentParam);
    if (!intent) return noSuch("payment_intent", paymentIntentParam, "payment_intent");
    chargeId = intent.latest_charge;
  }
  const charge = chargeId ? stripeMock.charges.get(chargeId) : undefined;
  if (!charge) return noSuch("charge", chargeId ?? "", "charge");
  const left = charge.amount - charge.amount_refunded;
  if (left === 0)
    return refused(400, `Charge ${charge.id} has already been refunded.`, {
      code: "charge_already_refunded",
    });
  const amount = amountToTakeBack(
    form,
    left,
    (asked) =>
      `Refund amount (${money(asked, charge.currency)}) is greater than unrefunded amount on charge (${money(left, charge.currency)})`,
  );
  if (typeof amount !== "number") return amount;
  const refund: MockRefund = {
    id: stripeId("re_"),
    object: "refund",
    amount,
    balance_transaction: stripeId("txn_"),
    charge: charge.id,
    currency: charge.currency,
    metadata: metadataOf(form),
    payment_intent: charge.payment_intent,
    reason: form.get("reason"),
    receipt_number: null,
    source_transfer_reversal: null,
    status: "succeeded",
    transfer_reversal: null,
    created: now(),
  };
  charge.amount_refunded += amount;
  charge.refunded = charge.amount_refunded === charge.amount;
  stripeMock.refunds.set(refund.id, refund);
  stripeMock.charges.set(charge.id, charge);
  return ok(refund);
}

/** A page of a list, newest first, as Stripe pages them (limit, starting_after). */
function listPage<T extends { id: string; created: number }>(
  items: T[],
  query: URLSearchParams,
  url: string,
) {
  // Newest first (a stable sort: equal times keep the newest insertion first).
  const sorted = [...items].reverse().sort((a, b) => b.created - a.created);
  const after = query.get("starting_after");
  const start = after ? sorted.findIndex((item) => item.id === after) + 1 : 0;
  const limit = Math.min(100, Math.max(1, Number(query.get("limit") ?? 10) || 10));
  const data = sorted.slice(start, start + limit);
  return HttpResponse.json({ object: "list", data, has_more: start + limit < sorted.length, url });
}

/** Answers a GET of one object: the object, or a 404 naming it. */
function retrieved<T>(store: Map<string, T>, objectName: string, id: string, param: string) {
  const found = store.get(id);
  if (found === undefined)
    return stripeError(404, `No such ${objectName}: '${id}'`, { code: "resource_missing", param });
  return HttpResponse.json(found as Record<string, unknown>);
}

export const stripeHandlers = [
  http.post(`${API}/checkout/sessions`, async ({ request }) => {
    const entry = await record(request, "/v1/checkout/sessions");
    const denied = unauthorized(entry);
    if (denied) return denied;
    if (stripeMock.failCreate) return stripeError(400, "Something is wrong with this request");
    return idempotent(entry, () => createSession(entry.form));
  }),
  http.get(`${API}/checkout/sessions/:id`, async ({ request, params }) => {
    const entry = await record(request, `/v1/checkout/sessions/${String(params.id)}`);
    return (
      unauthorized(entry) ??
      retrieved(stripeMock.sessions, "checkout.session", String(params.id), "session")
    );
  }),
  http.get(`${API}/payment_intents/:id`, async ({ request, params }) => {
    const entry = await record(request, `/v1/payment_intents/${String(params.id)}`);
    return (
      unauthorized(entry) ??
      retrieved(stripeMock.paymentIntents, "payment_intent", String(params.id), "intent")
    );
  }),
  http.post(`${API}/refunds`, async ({ request }) => {
    const entry = await record(request, "/v1/refunds");
    return unauthorized(entry) ?? idempotent(entry, () => createRefund(entry.form));
  }),
  http.post(`${API}/accounts`, async ({ request }) => {
    const entry = await record(request, "/v1/accounts");
    return unauthorized(entry) ?? idempotent(entry, () => createAccount(entry.form));
  }),
  http.get(`${API}/accounts/:id`, async ({ request, params }) => {
    const entry = await record(request, `/v1/accounts/${String(params.id)}`);
    return (
      unauthorized(entry) ?? retrieved(stripeMock.accounts, "account", String(params.id), "account")
    );
  }),
  http.post(`${API}/accounts/:id/login_links`, async ({ request, params }) => {
    const entry = await record(request, `/v1/accounts/${String(params.id)}/login_links`);
    return unauthorized(entry) ?? idempotent(entry, () => createLoginLink(String(params.id)));
  }),
  http.post(`${API}/account_links`, async ({ request }) => {
    const entry = await record(request, "/v1/account_links");
    return unauthorized(entry) ?? idempotent(entry, () => createAccountLink(entry.form));
  }),
  http.post(`${API}/transfers`, async ({ request }) => {
    const entry = await record(request, "/v1/transfers");
    return unauthorized(entry) ?? idempotent(entry, () => createTransfer(entry.form));
  }),
  http.get(`${API}/transfers`, async ({ request }) => {
    const entry = await record(request, "/v1/transfers");
    const denied = unauthorized(entry);
    if (denied) return denied;
    const group = entry.form.get("transfer_group");
    const destination = entry.form.get("destination");
    const transfers = [...stripeMock.transfers.values()].filter(
      (transfer) =>
        (group === null || transfer.transfer_group === group) &&
        (destination === null || transfer.destination === destination),
    );
    return listPage(transfers, entry.form, "/v1/transfers");
  }),
  http.get(`${API}/transfers/:id/reversals`, async ({ request, params }) => {
    const id = String(params.id);
    const entry = await record(request, `/v1/transfers/${id}/reversals`);
    const denied = unauthorized(entry);
    if (denied) return denied;
    if (!stripeMock.transfers.has(id))
      return stripeError(404, `No such transfer: '${id}'`, {
        code: "resource_missing",
        param: "id",
      });
    const reversals = [...stripeMock.reversals.values()].filter(
      (reversal) => reversal.transfer === id,
    );
    return listPage(reversals, entry.form, `/v1/transfers/${id}/reversals`);
  }),
  http.post(`${API}/transfers/:id/reversals`, async ({ request, params }) => {
    const entry = await record(request, `/v1/transfers/${String(params.id)}/reversals`);
    return (
      unauthorized(entry) ?? idempotent(entry, () => createReversal(String(params.id), entry.form))
    );
  }),
];

export interface StripeEventOptions {
  /** The connected account the event happened on (events delivered to a Connect webhook endpoint carry it). */
  account?: string;
  /** The changed fields' former values (data.previous_attributes of *.updated events). */
  previousAttributes?: Record<string, unknown>;
}

function eventId(): string {
  return `evt_${crypto.randomBytes(12).toString("hex")}`;
}

/** A Stripe event wrapping one object, as a webhook endpoint receives it (the JSON body). */
export function stripeEvent(
  type: string,
  object: object,
  id = eventId(),
  options: StripeEventOptions = {},
): string {
  return JSON.stringify({
    id,
    object: "event",
    ...(options.account ? { account: options.account } : {}),
    api_version: "2026-10-28.endive",
    created: now(),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: {
      object,
      ...(options.previousAttributes ? { previous_attributes: options.previousAttributes } : {}),
    },
  });
}

/** A Stripe event wrapping a Checkout Session, as the webhook receives it. */
export function checkoutEvent(type: string, session: object, id = eventId()): string {
  return stripeEvent(type, session, id);
}

/** charge.refunded with the charge as the mock holds it now (its amount_refunded and refunded). */
export function chargeRefundedEvent(chargeId: string, id = eventId()): string {
  const charge = stripeMock.charges.get(chargeId);
  if (!charge) throw new Error(`The Stripe mock has no charge ${chargeId}`);
  return stripeEvent("charge.refunded", charge, id);
}

/**
 * A dispute event of a charge. The first one opens the charge's dispute (its
 * amount defaults to the charge's); later ones carry the same dispute with
 * the new status, as Stripe sends charge.dispute.closed for the dispute it
 * opened.
 */
export function disputeEvent(
  type:
    | "charge.dispute.created"
    | "charge.dispute.updated"
    | "charge.dispute.closed"
    | "charge.dispute.funds_reinstated",
  facts: { chargeId: string; status: DisputeStatus; amount?: number },
  id = eventId(),
): string {
  const charge = stripeMock.charges.get(facts.chargeId);
  const opened = stripeMock.disputesByCharge.get(facts.chargeId);
  const amount = facts.amount ?? opened?.amount ?? charge?.amount;
  if (amount === undefined)
    throw new Error(
      `A dispute of ${facts.chargeId}, which the Stripe mock does not hold, needs an amount`,
    );
  const created = opened?.created ?? now();
  const dispute: MockDispute = {
    id: opened?.id ?? stripeId("dp_"),
    object: "dispute",
    amount,
    balance_transactions: opened?.balance_transactions ?? [],
    charge: facts.chargeId,
    currency: charge?.currency ?? opened?.currency ?? "usd",
    evidence_details: opened?.evidence_details ?? {
      due_by: created + 7 * 24 * 3600,
      has_evidence: false,
      past_due: false,
      submission_count: 0,
    },
    is_charge_refundable: false,
    livemode: false,
    metadata: {},
    payment_intent: charge?.payment_intent ?? null,
    reason: "fraudulent",
    status: facts.status,
    created,
  };
  stripeMock.disputesByCharge.set(facts.chargeId, dispute);
  if (charge && !charge.disputed) stripeMock.charges.set(charge.id, { ...charge, disputed: true });
  return stripeEvent(type, dispute, id);
}

/**
 * radar.early_fraud_warning.created for a charge the mock holds, as Stripe
 * sends it: the warning names the charge and its PaymentIntent, says whether
 * it is actionable (not disputed, not fully refunded; by default as the
 * charge stands now) and the issuer's fraud type.
 */
export function earlyFraudWarningEvent(
  chargeId: string,
  options: { actionable?: boolean; fraudType?: string } = {},
  id = eventId(),
): string {
  const charge = stripeMock.charges.get(chargeId);
  if (!charge) throw new Error(`The Stripe mock has no charge ${chargeId}`);
  const warning = {
    id: stripeId("issfr_"),
    object: "radar.early_fraud_warning",
    actionable: options.actionable ?? (!charge.disputed && !charge.refunded),
    charge: chargeId,
    created: now(),
    fraud_type: options.fraudType ?? "made_with_stolen_card",
    livemode: false,
    payment_intent: charge.payment_intent,
  };
  return stripeEvent("radar.early_fraud_warning.created", warning, id);
}

/**
 * A refund that fails after it succeeded (the buyer's bank refused it):
 * Stripe gives the amount back to the charge and sends charge.refund.updated
 * with the refund's status failed.
 */
export function refundFailedEvent(
  refundId: string,
  id = eventId(),
  type: "charge.refund.updated" | "refund.failed" = "charge.refund.updated",
): string {
  const refund = stripeMock.refunds.get(refundId);
  if (!refund) throw new Error(`The Stripe mock has no refund ${refundId}`);
  if (refund.status !== "failed") {
    const charge = stripeMock.charges.get(refund.charge);
    if (charge) {
      const amountRefunded = Math.max(0, charge.amount_refunded - refund.amount);
      stripeMock.charges.set(charge.id, {
        ...charge,
        amount_refunded: amountRefunded,
        refunded: amountRefunded === charge.amount,
      });
    }
    stripeMock.refunds.set(refundId, { ...refund, status: "failed", failure_reason: "declined" });
  }
  return stripeEvent(type, stripeMock.refunds.get(refundId)!, id, {
    previousAttributes: { status: "succeeded" },
  });
}

/** account.updated as a Connect webhook endpoint receives it: the account as the mock holds it now. */
export function accountUpdatedEvent(
  accountId: string,
  id = eventId(),
  previousAttributes?: Record<string, unknown>,
): string {
  return stripeEvent("account.updated", stripeMock.account(accountId), id, {
    account: accountId,
    previousAttributes,
  });
}

/** The Stripe-Signature header Stripe would send for this payload (the library's own test helper). */
export function signPayload(payload: string, secret: string, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}
