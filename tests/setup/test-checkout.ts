import { expect } from "vitest";
import type { AppLoadContext } from "@remix-run/node";
import { action as testCheckoutAction } from "~/routes/_market+/test-checkout.$sessionId";
import { action as cartAction } from "~/routes/_market+/cart";
import {
  callRoute,
  cookiesFrom,
  formRequest,
  makeRequest,
  type RequestOptions,
} from "#tests/setup/requests";
import { apiRoute } from "#tests/setup/api-routes";
import { rowsWhere } from "./rows-where";

/** Purchases through the built-in test checkout, the way a browser makes them (vitest only). */

const { action: createSessionApi } = apiRoute("/api/create-checkout-session");

export interface TestCheckoutOptions {
  /** The license each cart item asks for (default: none said, the standard one). */
  licenseType?: string;
  /** The request's context (the client IP the rate limits count). */
  context?: AppLoadContext;
}

/** The buyer a test checkout is for, as the checkout form sends it. */
export interface TestCustomer {
  name: string;
  email: string;
  company?: string;
  country?: string;
  vatNumber?: string;
}

/**
 * Opens a checkout of the listings with POST /api/create-checkout-session;
 * expects 200 and answers the session id.
 */
export async function openTestCheckout(
  listingIds: string[],
  customerInfo: TestCustomer,
  { licenseType, context }: TestCheckoutOptions = {},
): Promise<string> {
  const cartItems = listingIds.map((imageId) =>
    licenseType === undefined ? { imageId } : { imageId, licenseType },
  );
  const created = await callRoute(
    createSessionApi,
    makeRequest("/api/create-checkout-session", { json: { cartItems, customerInfo } }),
    {},
    context,
  );
  expect(created.status).toBe(200);
  return ((await created.json()) as { sessionId: string }).sessionId;
}

/** The test checkout's Pay button for the session (POST /test-checkout/{sessionId}, intent=pay). */
export function payTestCheckout(
  sessionId: string,
  options: RequestOptions = {},
): Promise<Response> {
  return callRoute(
    testCheckoutAction,
    formRequest(`/test-checkout/${sessionId}`, { intent: "pay" }, options),
    { sessionId },
  );
}

/** Opens a checkout of the listings and pays it (expecting the redirect back); answers the session id. */
export async function buyAtTestCheckout(
  listingIds: string[],
  customerInfo: TestCustomer,
  options: TestCheckoutOptions = {},
): Promise<string> {
  const sessionId = await openTestCheckout(listingIds, customerInfo, options);
  expect((await payTestCheckout(sessionId)).status).toBe(302);
  return sessionId;
}

const { loader: paymentStatusApi } = apiRoute("/api/payment-status/{sessionId}");

/** GET /api/payment-status/{sessionId}: what the return page polls. */
export function paymentStatusOf(sessionId: string): Promise<Response> {
  return callRoute(paymentStatusApi, makeRequest(`/api/payment-status/${sessionId}`), {
    sessionId,
  });
}

/** The download grants an order was given (one a paid item). */
export function downloadGrantsOf(orderId: string) {
  return rowsWhere("download_grants", "order_id", orderId);
}

/** The ledger's earnings rows of an order (one a creator's share). */
export function earningsOf(orderId: string) {
  return rowsWhere("earnings", "order_id", orderId);
}

/** Adds the listing to a fresh cookie cart with the no-JavaScript form; answers the cart's cookie. */
export async function cartCookieWith(listingId: string): Promise<string> {
  const added = await callRoute(cartAction, formRequest("/cart", { intent: "add", listingId }));
  return cookiesFrom(added);
}
