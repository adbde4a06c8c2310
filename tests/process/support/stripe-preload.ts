/**
 * Loaded into a server process with `node --import tsx --import <this file>`:
 * api.stripe.com answered by msw with the same handlers the unit tests use
 * (tests/mocks/stripe.ts: Checkout Sessions, PaymentIntents, charges, refunds
 * and Connect accounts, transfers and reversals), their state kept in
 * STRIPE_MOCK_DIR, one directory per store, so the test can mark sessions
 * paid or accounts onboarded and the state outlives a killed server. The real
 * `stripe` library in the server makes the calls.
 */
import path from "node:path";
import { setupServer } from "msw/node";
import {
  stripeHandlers,
  stripeMock,
  type IdempotentResponse,
  type MockAccount,
  type MockCharge,
  type MockDispute,
  type MockPaymentIntent,
  type MockRefund,
  type MockSession,
  type MockTransfer,
  type MockTransferReversal,
} from "../../mocks/stripe";
import { DirectoryMap } from "./directory-map";

const dir = process.env.STRIPE_MOCK_DIR;
if (!dir) throw new Error("STRIPE_MOCK_DIR is not set");
stripeMock.sessions = new DirectoryMap<MockSession>(path.join(dir, "sessions"));
stripeMock.byIdempotencyKey = new DirectoryMap<IdempotentResponse>(path.join(dir, "idempotency"));
stripeMock.accounts = new DirectoryMap<MockAccount>(path.join(dir, "accounts"));
stripeMock.paymentIntents = new DirectoryMap<MockPaymentIntent>(path.join(dir, "payment-intents"));
stripeMock.charges = new DirectoryMap<MockCharge>(path.join(dir, "charges"));
stripeMock.transfers = new DirectoryMap<MockTransfer>(path.join(dir, "transfers"));
stripeMock.reversals = new DirectoryMap<MockTransferReversal>(path.join(dir, "reversals"));
stripeMock.refunds = new DirectoryMap<MockRefund>(path.join(dir, "refunds"));
stripeMock.disputesByCharge = new DirectoryMap<MockDispute>(path.join(dir, "disputes-by-charge"));
setupServer(...stripeHandlers).listen({ onUnhandledRequest: "bypass" });
