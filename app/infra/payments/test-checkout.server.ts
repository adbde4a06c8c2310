import { newId, newSecretToken } from "~/infra/ids.server";
import type {
  CheckoutRequest,
  CheckoutSessionHandle,
  PaymentProvider,
  RefundRequest,
} from "~/infra/payments/payment-provider.server";

/**
 * The built-in test checkout: with no Stripe key configured, the app plays the
 * hosted page itself at /test-checkout/{sessionId}, clearly marked as test
 * mode. No money moves; paying there runs the same fulfillment as Stripe.
 * Session ids are long random secrets, like Stripe's, because whoever holds
 * one can see the order's status and downloads.
 */
export const TEST_SESSION_PREFIX = "cs_testmode_";

export function isTestSessionId(sessionId: string): boolean {
  return sessionId.startsWith(TEST_SESSION_PREFIX);
}

export class TestCheckoutProvider implements PaymentProvider {
  readonly id = "test" as const;

  async createCheckoutSession(request: CheckoutRequest): Promise<CheckoutSessionHandle> {
    const sessionId = `${TEST_SESSION_PREFIX}${newSecretToken()}`;
    return { sessionId, url: `${request.origin}/test-checkout/${sessionId}` };
  }

  async retrieveSession(): Promise<null> {
    return null;
  }

  /** No money moved, so none goes back: the refund is the app's own record of it. */
  async refund(_request: RefundRequest): Promise<{ refundId: string }> {
    return { refundId: `test_re_${newId()}` };
  }

  async chargeOf(): Promise<null> {
    return null;
  }
}
