import fs from "node:fs";
import path from "node:path";
import { sql } from "kysely";
import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { getLocalFileStore } from "~/infra/file-store.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { TestCheckoutProvider } from "~/infra/payments/test-checkout.server";
import { payTestOrder, startCheckout } from "~/features/market/checkout/checkout.server";
import { findOrderBySessionId } from "~/features/market/orders/orders.server";
import { queueMail } from "~/features/mail/public.server";
import { createUser } from "~/features/accounts/users.server";
import { TRANSFER_JOB } from "~/features/payouts/ledger/shares.server";
import { transferJobHandler } from "~/features/payouts/transfers/payout-jobs.server";
import { ERASE_ACCOUNT_JOB, eraseAccountJobHandler } from "~/features/erasure/erasure-job.server";
import { SELLER_ACCOUNT_CLOSED_REFUND_REASON } from "~/features/market/orders/suspended-seller-refunds.server";
import { loader as downloadRoute } from "~/routes/_resources+/downloads.$token";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { createListing, createStylizedImage } from "#tests/setup/market";
import { movementsOf, onboardTestPayouts, payoutDeps } from "#tests/setup/payouts";
import { apiRoute } from "#tests/setup/api-routes";
import { tableNames } from "#tests/setup/db-tables";
import { firstRowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";

const accountApi = apiRoute("/api/account");
const adminUserApi = apiRoute("/api/admin/users/{userId}");
const { loader: tokenUserApi } = apiRoute("/api/token-user");
const { loader: marketplaceApi } = apiRoute("/api/marketplace");
const { loader: paymentStatusApi } = apiRoute("/api/payment-status/{sessionId}");
const { action: refundRequestApi } = apiRoute("/api/refund-requests");
const { action: declineRefundApi } = apiRoute("/api/admin/refund-requests/{id}/decline");

/**
 * Erasing an account (DELETE /api/account and DELETE /api/admin/users/{id})
 * on a temporary database and file store: the account closes at once, the job
 * deletes the rest, and buyers keep what they paid for.
 */

let admin: Awaited<ReturnType<typeof createTestAdmin>>;
beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
  admin ??= await createTestAdmin();
});

/** Runs the erasure and transfer jobs until none is due. */
async function runErasureJobs() {
  await new JobWorker({
    db: getDb(),
    handlers: {
      [ERASE_ACCOUNT_JOB]: eraseAccountJobHandler({
        store: getLocalFileStore(),
        outboxDir: getConfig().outboxDir,
        payouts: payoutDeps(),
        log: () => {},
      }),
      [TRANSFER_JOB]: transferJobHandler(payoutDeps()),
    },
    concurrency: 1,
    backoff: { baseMs: 0, maxMs: 0 },
    log: () => {},
  }).drain();
}

/** A checkout in the built-in test checkout; paid unless `pay` is false. */
async function checkoutOf(listingIds: string[], email: string, { pay = true } = {}) {
  const db = getDb();
  const started = await startCheckout(db, new TestCheckoutProvider(), {
    listingIds,
    customer: { name: "Bea Buyer", email },
    origin: "http://localhost:3000",
    now: new Date(),
  });
  if (pay) await payTestOrder(db, (await findOrderBySessionId(db, started.sessionId))!, new Date());
  return started;
}

async function paymentStatus(sessionId: string) {
  const response = await callRoute(
    paymentStatusApi,
    makeRequest(`/api/payment-status/${sessionId}`),
    { sessionId },
  );
  expect(response.status).toBe(200);
  return (await response.json()) as {
    paymentStatus: string;
    error: string | null;
    downloads: { downloadUrl: string }[];
  };
}

async function download(url: string) {
  const token = url.split("/").pop()!;
  return callRoute(downloadRoute, makeRequest(`/downloads/${token}`), { token });
}

const eraseOwn = (credentials: { token?: string; cookie?: string }, body: unknown) =>
  callRoute(
    accountApi.action,
    makeRequest("/api/account", { method: "DELETE", json: body, ...credentials }),
  );

/** Every text cell of every table (and the FTS index) that contains one of the needles. */
async function cellsContaining(needles: string[]): Promise<string[]> {
  const db = getDb();
  // Not SQLite's own tables nor the search index's shadow tables (the index itself is read).
  const tables = (await tableNames(db)).filter(
    (name) => !name.startsWith("sqlite_") && !name.startsWith("listing_search_"),
  );
  const found: string[] = [];
  for (const name of tables) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(db);
    for (const row of rows.rows) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value !== "string") continue;
        const lower = value.toLowerCase();
        for (const needle of needles)
          if (lower.includes(needle.toLowerCase()))
            found.push(`${name}.${column}: ${value.slice(0, 120)}`);
      }
    }
  }
  return found;
}

/** Every file in the store (not the removed ones waiting for their purge). */
function storedKeys(): Set<string> {
  const root = getLocalFileStore().root;
  const keys = new Set<string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== ".deleted") walk(full);
      } else keys.add(path.relative(root, full).split(path.sep).join("/"));
    }
  };
  if (fs.existsSync(root)) walk(root);
  return keys;
}

describe("erasing an account", () => {
  it("closes the account at once and, after its job, leaves no email, name or unbought file, while the buyer keeps the download", async () => {
    const db = getDb();
    const creator = await createTestUser({
      email: "zelda.quill@example.com",
      firstName: "Zeldaquin",
      lastName: "Quillfeather",
    });
    const accountId = await onboardTestPayouts(creator.user);
    const { listing: sold } = await createListing(creator.user.id, {
      title: "Sold portrait",
      price: 20,
    });
    const { listing: unsold, stylized: unsoldStyle } = await createListing(creator.user.id, {
      title: "Unsold portrait",
    });
    const draft = await createStylizedImage(creator.user.id);
    const purchase = await checkoutOf([sold.id], "buyer-keeps@example.com");
    const before = await paymentStatus(purchase.sessionId);
    expect(before.downloads).toHaveLength(1);
    // The creator also bought something once, with the same address.
    const { listing: other } = await createListing((await createTestUser()).user.id, {
      title: "Another's portrait",
    });
    const ownPurchase = await checkoutOf([other.id], "zelda.quill@example.com");
    // ... asked for its refund in her own words, and the admin declined it in words naming her.
    const asked = await callRoute(
      refundRequestApi,
      makeRequest("/api/refund-requests", {
        json: {
          sessionId: ownPurchase.sessionId,
          reason: "Zeldaquin Quillfeather changed her mind",
        },
      }),
    );
    expect(asked.status).toBe(202);
    const { id: refundRequestId } = (await asked.json()) as { id: string };
    const declined = await callRoute(
      declineRefundApi,
      makeRequest(`/api/admin/refund-requests/${refundRequestId}/decline`, {
        token: admin.token,
        json: { reason: "Sorry Zeldaquin, the file is as the preview showed" },
      }),
      { id: refundRequestId },
    );
    expect(declined.status).toBe(200);
    await db
      .insertInto("integrations")
      .values({
        id: "erase-integration",
        user_id: creator.user.id,
        platform: "opensea",
        method: "apiKey",
        credentials: "sealed-secret-key-zeldaquin",
        key_last4: "quin",
        wallet_address: null,
        shop_domain: null,
        scopes: null,
        account_name: null,
        host_key: null,
        created_at: new Date().toISOString(),
        updated_at: new Date().toISOString(),
      })
      .execute();
    await db
      .insertInto("email_changes")
      .values({
        id: "erase-change",
        user_id: creator.user.id,
        new_email: "zelda.next@example.com",
        token_hash: "erase-change-hash",
        created_at: "2026-01-01T00:00:00.000Z",
        expires_at: "2099-01-01T00:00:00.000Z",
        used_at: null,
      })
      .execute();
    await queueMail(db, {
      to: "Zeldaquin <zelda.quill@example.com>",
      subject: "Hello",
      text: "Hi Zeldaquin",
      html: "<p>Hi Zeldaquin</p>",
      now: new Date(),
    });
    const creatorKeys = [
      ...(await selectWhere("images", "file_key", "user_id", creator.user.id)).map(
        (row) => row.file_key,
      ),
      ...(await selectWhere("stylized_images", "file_key", "user_id", creator.user.id)).map(
        (row) => row.file_key!,
      ),
      sold.file_key,
      sold.preview_key,
      unsold.file_key,
      unsold.preview_key,
    ];
    expect(creatorKeys.every((key) => storedKeys().has(key))).toBe(true);

    // A wrong password changes nothing.
    const refused = await eraseOwn({ token: creator.token }, { password: "not-the-password" });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toMatchObject({ fieldErrors: { password: [expect.any(String)] } });
    expect(await firstRowWhere("users", ["email", "erased_at"], "id", creator.user.id)).toEqual({
      email: "zelda.quill@example.com",
      erased_at: null,
    });
    expect(
      (await callRoute(tokenUserApi, makeRequest("/api/token-user", { token: creator.token })))
        .status,
    ).toBe(200);

    // The consent log holds the creator's consent given at sign-up until the erasure.
    const consentLog = () =>
      selectWhere("consent_log", ["action", "purpose"], "user_id", creator.user.id);
    expect(await consentLog()).toEqual([{ action: "grant", purpose: "face-processing" }]);

    const erased = await eraseOwn({ token: creator.token }, { password: TEST_PASSWORD });
    expect(erased.status).toBe(202);
    // The consent log goes with the account, at once.
    expect(await consentLog()).toEqual([]);

    // At once: the token and the session answer 401, the listings are off the marketplace and its search.
    expect(
      (await callRoute(tokenUserApi, makeRequest("/api/token-user", { token: creator.token })))
        .status,
    ).toBe(401);
    expect(
      (await callRoute(tokenUserApi, makeRequest("/api/token-user", { cookie: creator.cookie })))
        .status,
    ).toBe(401);
    const market = (await (
      await callRoute(marketplaceApi, makeRequest("/api/marketplace?search=portrait"))
    ).json()) as { items: { id: string }[] };
    expect(market.items.map((item) => item.id)).not.toContain(sold.id);
    expect(market.items.map((item) => item.id)).not.toContain(unsold.id);
    // The search index's entries are gone too, where the engine keeps them in a table of their own (SQLite).
    if ((await tableNames(db)).includes("listing_search_entries")) {
      const searchEntries = await db
        .selectFrom("listing_search_entries")
        .select("listing_id")
        .where("listing_id", "in", [sold.id, unsold.id])
        .execute();
      expect(searchEntries).toEqual([]);
    }
    expect(
      await selectWhere("audit_log", ["actor_id", "action"], "subject_id", creator.user.id),
    ).toEqual([{ actor_id: creator.user.id, action: "user.erase" }]);
    // The email is free again.
    await expect(
      createUser(db, {
        email: "zelda.quill@example.com",
        password: "a-new-long-password",
        firstName: "New",
        lastName: "Person",
      }),
    ).resolves.toBeTruthy();
    await db.deleteFrom("users").where("email", "=", "zelda.quill@example.com").execute();

    await runErasureJobs();

    // Money owed was sent first, then the payout link went.
    expect(await movementsOf(accountId)).toMatchObject([{ kind: "transfer", amount_cents: 1700 }]);
    expect(await rowsWhere("payout_accounts", "user_id", creator.user.id)).toEqual([]);
    expect(await rowsWhere("integrations", "user_id", creator.user.id)).toEqual([]);
    expect(await rowsWhere("images", "user_id", creator.user.id)).toEqual([]);
    expect(await rowsWhere("consent_log", "user_id", creator.user.id)).toEqual([]);
    expect(await selectWhere("listings", "id", "user_id", creator.user.id)).toEqual([
      { id: sold.id },
    ]);
    expect(
      await db
        .selectFrom("stylized_images")
        .select("id")
        .where("id", "in", [unsoldStyle.id, draft.id])
        .execute(),
    ).toEqual([]);

    // Her refund request stays, declined, without her words or the admin's reply to them.
    expect(
      await selectWhere(
        "refund_requests",
        ["status", "reason", "decline_reason"],
        "id",
        refundRequestId,
      ),
    ).toEqual([{ status: "declined", reason: "", decline_reason: null }]);

    // Nothing of the person: no email, no name, in any text column of any table.
    expect(
      await cellsContaining([
        "zelda.quill@example.com",
        "zelda.next@example.com",
        "Zeldaquin",
        "Quillfeather",
        "secret-key",
      ]),
    ).toEqual([]);

    // No file of the creator's is left but the one a buyer paid for.
    const left = storedKeys();
    expect(creatorKeys.filter((key) => left.has(key))).toEqual([sold.file_key]);

    // The buyer's earlier download still works, and so does the license page's order.
    const again = await download(before.downloads[0].downloadUrl);
    expect(again.status).toBe(200);
  });

  it("refunds a checkout of an erased creator's listing that is paid afterwards, with a clear reason", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { price: 15 });
    const open = await checkoutOf([listing.id], "late-buyer@example.com", { pay: false });
    expect((await eraseOwn({ cookie: creator.cookie }, { password: TEST_PASSWORD })).status).toBe(
      202,
    );
    await payTestOrder(getDb(), (await findOrderBySessionId(getDb(), open.sessionId))!, new Date());
    const status = await paymentStatus(open.sessionId);
    expect(status).toMatchObject({
      paymentStatus: "refunded",
      error: SELLER_ACCOUNT_CLOSED_REFUND_REASON,
      downloads: [],
    });
  });

  it("the admin erases any user but the super admin: 202, 400 for the super admin, 404 for an unknown id, 403 for others", async () => {
    const target = await createTestUser();
    const bystander = await createTestUser();
    const erase = (userId: string, token: string) =>
      callRoute(
        adminUserApi.action,
        makeRequest(`/api/admin/users/${userId}`, { method: "DELETE", token }),
        { userId },
      );
    expect((await erase(target.user.id, bystander.token)).status).toBe(403);
    expect((await erase("super-admin", admin.token)).status).toBe(400);
    expect((await erase("no-such-user", admin.token)).status).toBe(404);
    const response = await erase(target.user.id, admin.token);
    expect(response.status).toBe(202);
    expect(await response.json()).toEqual({ userId: target.user.id, status: "erasing" });
    expect(
      await selectWhere("audit_log", ["actor_id", "action"], "subject_id", target.user.id),
    ).toEqual([{ actor_id: "super-admin", action: "user.erase" }]);
    expect(
      (await callRoute(tokenUserApi, makeRequest("/api/token-user", { token: target.token })))
        .status,
    ).toBe(401);
    // The super admin's own account is untouched.
    expect(
      (await callRoute(tokenUserApi, makeRequest("/api/token-user", { token: admin.token })))
        .status,
    ).toBe(200);
  });
});
