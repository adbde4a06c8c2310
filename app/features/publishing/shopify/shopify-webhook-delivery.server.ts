import crypto from "node:crypto";
import type { FeatureTies } from "~/infra/call-context.server";
import type { DB } from "~/infra/db.server";
import { badRequest, notFound, unauthorized } from "~/infra/errors.server";
import { verifyShopifyWebhook } from "~/infra/shopify/shopify-webhooks.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { isShopDomain } from "~/lib/shop-domain";
import {
  handleShopifyWebhook,
  isShopifyWebhookTopic,
  readShopifyWebhookBody,
} from "~/features/publishing/shopify/shopify-webhooks.server";

/** A webhook delivery as it came: the raw body and the headers Shopify sends with it. */
export interface ShopifyWebhookDelivery {
  payload: Buffer;
  hmac?: string;
  topic?: string;
  shop?: string;
  webhookId?: string;
  triggeredAt?: string;
}

/**
 * Checks and acts on one delivery of a Shopify app webhook. The raw body's
 * HMAC is checked against the app's client secret (`secret`, null when the
 * app is not configured: 404) before anything is read from it: 401 when it
 * is missing or wrong. A signed body that is not a JSON object is a 400; a
 * signed topic the app does not subscribe to is acknowledged and ignored.
 * The headers are not signed, so nothing in them is taken on trust: the
 * store is the one the body names (400 when the shop header names another;
 * an order's body names none, so its store is the header's, 400 without
 * one), the body must have its topic's shape (400 otherwise), and a body
 * already acted on is not acted on again whatever its webhook id. A late
 * delivery is acted on (Shopify retries for 4 hours with the original
 * trigger time, and each topic's action is idempotent); the trigger time
 * (X-Shopify-Triggered-At, required) only tells an uninstall from before the
 * store's current connection from one after it.
 */
export async function receiveShopifyWebhookDelivery(
  db: DB,
  secret: string | null | undefined,
  delivery: ShopifyWebhookDelivery,
  now: Date,
  ties: FeatureTies,
): Promise<{ received: true; outcome: string }> {
  if (!secret) throw notFound("Shopify webhooks are not configured");
  if (!verifyShopifyWebhook(delivery.payload, delivery.hmac, secret))
    throw unauthorized("Invalid webhook signature");
  let body: unknown;
  try {
    body = JSON.parse(delivery.payload.toString("utf8"));
  } catch {
    throw badRequest("Malformed JSON body");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body))
    throw badRequest("The JSON body must be an object");
  if (!isShopifyWebhookTopic(delivery.topic)) return { received: true, outcome: "ignored" };
  const topic = delivery.topic;
  const read = readShopifyWebhookBody(topic, body);
  if (!read) throw badRequest(`The body is not a ${topic} payload from Shopify`);
  const headerShop = delivery.shop?.trim().toLowerCase();
  if (read.shop && headerShop !== undefined && headerShop !== read.shop) {
    throw badRequest("X-Shopify-Shop-Domain does not name the store in the signed body");
  }
  const shop = read.shop ?? headerShop;
  if (!shop || !isShopDomain(shop)) {
    throw badRequest("X-Shopify-Shop-Domain must name the store the order was placed in");
  }
  const triggeredAt = delivery.triggeredAt ? new Date(delivery.triggeredAt) : null;
  if (!triggeredAt || Number.isNaN(triggeredAt.getTime())) {
    throw badRequest("X-Shopify-Triggered-At must be the time the webhook was triggered");
  }
  const bodySha256 = crypto.createHash("sha256").update(delivery.payload).digest("hex");
  const webhookId = delivery.webhookId || `sha256:${bodySha256}`;
  const result = await handleShopifyWebhook(db, {
    topic,
    shop,
    payload: read.payload,
    webhookId,
    bodySha256,
    triggeredAt,
    now,
    ties,
  });
  // An order's receipt mail was queued with its delivery.
  announceJobs();
  // The record of compliance requests (also kept in shopify_webhook_receipts).
  console.info(
    `Shopify webhook ${result.topic} for ${result.shop}${result.duplicate ? " (again)" : ""}: ${result.outcome}`,
  );
  return { received: true, outcome: result.outcome };
}
