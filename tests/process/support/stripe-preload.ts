/**
 * Loaded into a server process with `node --import tsx --import <this file>`:
 * api.stripe.com answered by msw with the same Checkout Session handlers the
 * unit tests use (tests/mocks/stripe.ts), their state kept in STRIPE_MOCK_DIR
 * so the test can mark sessions paid and the state outlives a killed server.
 * The real `stripe` library in the server makes the calls.
 */
import path from "node:path";
import { setupServer } from "msw/node";
import { stripeHandlers, stripeMock, type MockSession } from "../../mocks/stripe";
import { DirectoryMap } from "./directory-map";

const dir = process.env.STRIPE_MOCK_DIR;
if (!dir) throw new Error("STRIPE_MOCK_DIR is not set");
stripeMock.sessions = new DirectoryMap<MockSession>(path.join(dir, "sessions"));
stripeMock.byIdempotencyKey = new DirectoryMap<string>(path.join(dir, "idempotency"));
setupServer(...stripeHandlers).listen({ onUnhandledRequest: "bypass" });
