import crypto from "node:crypto";
import { expect } from "vitest";
import type { ListingRow, StylizedImageRow, UserRow } from "#db/schema";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { sessionCookie } from "~/web/auth.server";
import { PUBLISH_JOB } from "~/features/publishing/publications/publishing-job.server";
import { createApiToken, createWebSession } from "~/features/accounts/sessions/sessions.server";
import { payTestOrder, startCheckout } from "~/features/market/checkout/checkout.server";
import { findOrderBySessionId } from "~/features/market/orders/orders.server";
import { askForRefund } from "~/features/market/orders/refund-requests.server";
import { TestCheckoutProvider } from "~/infra/payments/test-checkout.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { startPublishWorker } from "#tests/setup/publish-worker";
import { createTestAdmin, createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { apiRoutes } from "#tests/setup/api-routes";
import { connectOpenSeaByKey } from "#tests/setup/integrations";
import { createCheckoutSession } from "#tests/setup/stripe";
import { rowWhere } from "#tests/setup/rows-where";

const { banRoute, launchRoute } = apiRoutes({
  banRoute: "/api/admin/users/{userId}/{action}",
  launchRoute: "/api/marketplace/launch",
});

/**
 * The people and data the reliability tests work on: creator A (Alice) with a
 * listed image, a connected platform, a mint kit and a sale; creator B (Bob)
 * with nothing; a creator who was banned after signing in; and the super admin.
 */

export const WALLET = "0x52908400098527886E0F7030069857D2E4169EE7";

export interface Account {
  user: UserRow;
  email: string;
  password: string;
  /** A bearer token and a session cookie made when the account was created (for the banned one: before the ban). */
  token: string;
  cookie: string;
}

export interface World {
  admin: Account;
  alice: Account;
  bob: Account;
  banned: Account;
  /** Alice's listed image: the original, its completed stylized image and the listing. */
  listed: { imageId: string; stylized: StylizedImageRow; listing: ListingRow };
  /** Alice's OpenSea connection, made through the API with this key. */
  integration: { id: string; apiKey: string };
  /** Alice's OpenSea mint kit: its publication id and her signed download URL. */
  mintKit: { publicationId: string; downloadUrl: string };
  /** A paid order of Alice's listing and her earnings record from it. */
  sale: { sessionId: string; orderId: string; earningId: string };
  /** Strings that identify Alice's private data; none may appear in what anyone else is shown. */
  canaries: string[];
}

/** Fresh credentials for a user (so a call that ends them cannot spoil the next). */
export async function freshCredentials(userId: string): Promise<{ token: string; cookie: string }> {
  const db = getDb();
  const { token } = await createApiToken(db, userId, 30);
  const { secret } = await createWebSession(db, userId, 30);
  return { token, cookie: (await sessionCookie().serialize(secret)).split(";")[0] };
}

async function account(made: Awaited<ReturnType<typeof createTestUser>>): Promise<Account> {
  return {
    user: made.user,
    email: made.user.email,
    password: TEST_PASSWORD,
    token: made.token,
    cookie: made.cookie,
  };
}

/** A worker that runs the publishing jobs (launch and post wait for them). */
export { startPublishWorker };

/** Waits until no publishing job is queued or running, so the database is at rest. */
export async function publishJobsIdle(timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const busy = await getDb()
      .selectFrom("jobs")
      .select("id")
      .where("kind", "=", PUBLISH_JOB)
      .where("status", "in", ["queued", "running"])
      .execute();
    if (busy.length === 0) return;
    if (Date.now() > deadline)
      throw new Error(`Publishing jobs still busy: ${busy.map((job) => job.id).join(", ")}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Builds the world through the product's own routes and services (needs a running publish worker). */
export async function buildWorld(): Promise<World> {
  const db = getDb();
  const admin = await account(await createTestAdmin());
  const alice = await account(
    await createTestUser({ email: "alice@example.com", firstName: "Alice", lastName: "Able" }),
  );
  const bob = await account(
    await createTestUser({ email: "bob@example.com", firstName: "Bob", lastName: "Baker" }),
  );
  const banned = await account(
    await createTestUser({ email: "mallory@example.com", firstName: "Mallory", lastName: "Mask" }),
  );

  const { listing, stylized } = await createListing(alice.user.id, {
    title: "Alice Portrait",
    style: "anime",
  });
  await createListing(banned.user.id, { title: "Mallory Portrait", style: "anime" });

  const apiKey = `alice-opensea-${crypto.randomBytes(12).toString("hex")}`;
  const connected = await connectOpenSeaByKey(alice.token, apiKey, WALLET);
  const integration = (await connected.json()) as { id: string };

  const launched = await callRoute(
    launchRoute.action,
    makeRequest("/api/marketplace/launch", {
      token: alice.token,
      json: { imageId: stylized.id, title: "Alice Portrait", price: 25, platforms: ["opensea"] },
    }),
  );
  expect(launched.status).toBe(200);
  const kit = (
    (await launched.json()) as {
      platforms: { id: string; status: string; publicationId: string; downloadUrl: string }[];
    }
  ).platforms[0];
  expect(kit.status).toBe("ready_to_mint");

  const checkout = await createCheckoutSession([{ imageId: listing.id, licenseType: "standard" }], {
    name: "Bea Buyer",
    email: "bea@example.com",
  });
  expect(checkout.status).toBe(200);
  const { sessionId } = (await checkout.json()) as { sessionId: string };
  const order = (await findOrderBySessionId(db, sessionId))!;
  await payTestOrder(db, order, new Date());
  const earning = await rowWhere("earnings", "id", "order_id", order.id);

  const ban = await callRoute(
    banRoute.action,
    makeRequest(`/api/admin/users/${banned.user.id}/ban`, { method: "POST", token: admin.token }),
    { userId: banned.user.id, action: "ban" },
  );
  expect(ban.status).toBe(200);
  await publishJobsIdle();

  const publication = await rowWhere("listing_platforms", "listing_id", "id", kit.publicationId);
  return {
    admin,
    alice,
    bob,
    banned,
    listed: { imageId: stylized.image_id, stylized, listing },
    integration: { id: integration.id, apiKey },
    mintKit: { publicationId: kit.publicationId, downloadUrl: kit.downloadUrl },
    sale: { sessionId, orderId: order.id, earningId: earning.id },
    canaries: [
      alice.user.id,
      alice.email,
      "Alice",
      stylized.image_id,
      stylized.id,
      listing.id,
      integration.id,
      WALLET,
      WALLET.toLowerCase(),
      kit.publicationId,
      sessionId,
      order.id,
      earning.id,
      ...(publication.listing_id ? [publication.listing_id] : []),
    ],
  };
}

/** Points the test configuration at values the tests need, answering a function that restores it. */
export function configure(values: Partial<ReturnType<typeof getConfig>>): () => void {
  const config = getConfig() as unknown as Record<string, unknown>;
  const saved = Object.fromEntries(Object.keys(values).map((key) => [key, config[key]]));
  Object.assign(config, values);
  return () => Object.assign(config, saved);
}

let refundListingId: string | undefined;
/**
 * A listing of a creator of its own, made once, whose sales the refund calls use (Alice's and
 * Bob's numbers stay as the world made them).
 */
export async function refundableListing(): Promise<string> {
  refundListingId ??= (
    await createListing((await createTestUser()).user.id, { title: "Refund Portrait" })
  ).listing.id;
  return refundListingId;
}

/** A paid test-checkout order of the refund listing, made for one call: its checkout session and order. */
export async function refundableSession(): Promise<{ sessionId: string; orderId: string }> {
  const db = getDb();
  const now = new Date();
  const started = await startCheckout(db, new TestCheckoutProvider(), {
    listingIds: [await refundableListing()],
    // An address of its own: the receipts stay within the limit of mail to one recipient.
    customer: {
      name: "Bea Buyer",
      email: `refund-${crypto.randomBytes(6).toString("hex")}@example.com`,
    },
    origin: "http://localhost:3000",
    now,
  });
  await payTestOrder(db, (await findOrderBySessionId(db, started.sessionId))!, now);
  return { sessionId: started.sessionId, orderId: started.orderId };
}

/** A refund request, waiting for the admin, of a paid order made for one call: its id. */
export async function openRefundRequest(): Promise<string> {
  const db = getDb();
  const { sessionId } = await refundableSession();
  const made = await askForRefund(
    { db, now: new Date(), windowDays: 14, origin: null, adminEmail: "root@example.com" },
    (await findOrderBySessionId(db, sessionId))!,
    "Not what the preview showed.",
  );
  return made.id;
}

/**
 * A test file's world: `values` in the config, a publish worker and the built world; `stop`
 * ends the worker and puts the config back (for afterAll).
 */
export async function startWorld(
  values: Partial<ReturnType<typeof getConfig>>,
): Promise<{ w: World; stop: () => Promise<void> }> {
  const restoreConfig = configure(values);
  const worker = startPublishWorker();
  const w = await buildWorld();
  return {
    w,
    stop: async () => {
      await worker.stop();
      restoreConfig();
    },
  };
}
