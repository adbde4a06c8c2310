import crypto from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { TestCheckoutProvider } from "~/infra/payments/test-checkout.server";
import { payTestOrder, startCheckout } from "~/features/market/checkout/checkout.server";
import { findOrderBySessionId } from "~/features/market/orders/orders.server";
import { createLibraryToken } from "~/features/market/library/library-token.server";
import { MAIL_JOB } from "~/features/mail/mail-job.server";
import { loader as libraryPage } from "~/routes/_market+/library";
import { loader as marketplacePage } from "~/routes/_market+/marketplace";
import { action as refundForms } from "~/routes/_market+/refund-requests";
import { apiRoutes } from "#tests/setup/api-routes";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { paymentStatusOf } from "#tests/setup/test-checkout";
import { expectUnchanged, fingerprint } from "#tests/reliability/db-fingerprint";
import { flashOf } from "#tests/setup/flash";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";

/**
 * Refund requests through their real doors, on a temporary database (both
 * engines): POST /api/refund-requests with the checkout session, the
 * library's form (its link's token), and the admin's list, approve and
 * decline. Payment times are set back from now, so the window's edges are
 * tested to the hour; a refused request changes nothing at all.
 */

const api = apiRoutes({
  ask: "/api/refund-requests",
  list: "/api/admin/refund-requests",
  approve: "/api/admin/refund-requests/{id}/approve",
  decline: "/api/admin/refund-requests/{id}/decline",
  refund: "/api/admin/orders/{orderId}/refund",
});

const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
let admin: Awaited<ReturnType<typeof createTestAdmin>>;

beforeEach(async () => {
  admin ??= await createTestAdmin();
  await getDb().deleteFrom("jobs").execute();
});

const newEmail = () => `buyer-${crypto.randomBytes(5).toString("hex")}@example.com`;

/** The creator whose listing every sale here is of (made once: a listing takes a while to make). */
let seller: Promise<{
  creator: Awaited<ReturnType<typeof createTestUser>>;
  listing: Awaited<ReturnType<typeof createListing>>["listing"];
}>;

/** The creator's listing bought in the test checkout by `email`, paid `agoMs` ago. */
async function sale(email: string, agoMs = HOUR) {
  const db = getDb();
  seller ??= createTestUser({ firstName: "Cleo" }).then(async (creator) => ({
    creator,
    listing: (await createListing(creator.user.id, { title: "Harbor portrait", price: 20 }))
      .listing,
  }));
  const { creator, listing } = await seller;
  const paidAt = new Date(Date.now() - agoMs);
  const started = await startCheckout(db, new TestCheckoutProvider(), {
    listingIds: [listing.id],
    customer: { name: "Bea Buyer", email },
    origin: "http://localhost:3000",
    now: paidAt,
  });
  const order = (await findOrderBySessionId(db, started.sessionId))!;
  await payTestOrder(db, order, paidAt);
  return { sessionId: started.sessionId, orderId: started.orderId, creator, listing };
}

async function ask(sessionId: string, reason = "The colours are not what the preview showed.") {
  const response = await callRoute(
    api.ask.action,
    makeRequest("/api/refund-requests", { json: { sessionId, reason } }),
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function adminCall(
  route: "approve" | "decline",
  id: string,
  json: Record<string, unknown> = {},
) {
  const response = await callRoute(
    api[route].action,
    makeRequest(`/api/admin/refund-requests/${id}/${route}`, { token: admin.token, json }),
    { id },
  );
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

const requestsOf = (orderId: string) => rowsWhere("refund_requests", "order_id", orderId);

const orderRow = (orderId: string) => rowWhere("orders", "*", "id", orderId);

/** The queued messages, as the mail job will send them. */
async function queuedMail() {
  const rows = await selectWhere("jobs", "payload", "kind", MAIL_JOB);
  return rows.map(
    (row) => JSON.parse(row.payload) as { to: string; subject: string; text: string },
  );
}

/** Asks, expecting a refusal with `status` whose message matches, and nothing changed anywhere. */
async function expectRefused(
  call: () => Promise<{ status: number; body: Record<string, unknown> }>,
  status: number,
  message: RegExp,
) {
  const before = await fingerprint();
  const answer = await call();
  expect(answer).toEqual({ status, body: { message: expect.stringMatching(message) } });
  expectUnchanged(before, await fingerprint(), `a refused request (${status})`);
}

describe("POST /api/refund-requests", () => {
  it("takes the buyer's request within the window (202) and tells the creator and the admin, never the buyer's words", async () => {
    const email = newEmail();
    const bought = await sale(email, 14 * DAY - HOUR);
    // The receipt and the sale notice are not what this test reads.
    await getDb().deleteFrom("jobs").execute();
    const answer = await ask(bought.sessionId, "Wrong person in the picture <b>really</b>");
    expect(answer).toEqual({ status: 202, body: { id: expect.any(String), status: "requested" } });

    expect(await requestsOf(bought.orderId)).toEqual([
      expect.objectContaining({
        id: answer.body.id,
        status: "requested",
        reason: "Wrong person in the picture <b>really</b>",
        decided_at: null,
      }),
    ]);
    // The order is untouched until the admin decides.
    expect(await orderRow(bought.orderId)).toMatchObject({ status: "paid", refunded_cents: 0 });

    const mail = await queuedMail();
    expect(mail.map((message) => message.to).sort()).toEqual(
      [bought.creator.user.email, admin.user.email].sort(),
    );
    const toCreator = mail.find((message) => message.to === bought.creator.user.email)!;
    expect(toCreator.subject).toBe("A buyer asked for a refund of a sale on Selfie Studio");
    expect(toCreator.text).toContain("Harbor portrait");
    const toAdmin = mail.find((message) => message.to === admin.user.email)!;
    expect(toAdmin.text).toContain(bought.orderId);
    expect(toAdmin.text).toContain("/admin#refund-requests");
    for (const message of mail) {
      expect(message.text).not.toContain("Wrong person");
      expect(message.text).not.toContain(email);
    }

    // The receipt's status answers the request too.
    const status = (await (await paymentStatusOf(bought.sessionId)).json()) as Record<
      string,
      unknown
    >;
    expect(status).toMatchObject({
      refundRequest: { status: "requested", declineReason: null },
      refundableUntil: null,
    });
  });

  it("refuses after the window with a sentence, changing nothing", async () => {
    const bought = await sale(newEmail(), 14 * DAY + HOUR);
    await expectRefused(
      () => ask(bought.sessionId),
      409,
      /within 14 days of payment; this order was paid on .*, so that time is over/,
    );
    expect(await requestsOf(bought.orderId)).toEqual([]);
  });

  it("refuses a second request of the same order, changing nothing", async () => {
    const bought = await sale(newEmail());
    expect((await ask(bought.sessionId)).status).toBe(202);
    await expectRefused(
      () => ask(bought.sessionId, "Again"),
      409,
      /already asked for on .*; the admin has not decided yet/,
    );
    expect(await requestsOf(bought.orderId)).toHaveLength(1);
  });

  it("of two requests at the same moment, takes one", async () => {
    const bought = await sale(newEmail());
    const answers = await Promise.all([ask(bought.sessionId, "One"), ask(bought.sessionId, "Two")]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([202, 409]);
    expect(await requestsOf(bought.orderId)).toHaveLength(1);
  });

  it("refuses a refunded order, changing nothing", async () => {
    const bought = await sale(newEmail());
    const refunded = await callRoute(
      api.refund.action,
      makeRequest(`/api/admin/orders/${bought.orderId}/refund`, { token: admin.token, json: {} }),
      { orderId: bought.orderId },
    );
    expect(refunded.status).toBe(200);
    await expectRefused(() => ask(bought.sessionId), 409, /^This order was already refunded\.$/);
  });

  it("answers an unknown session 404 with a sentence, changing nothing", async () => {
    await expectRefused(
      () => ask(`cs_test_${crypto.randomBytes(12).toString("hex")}`),
      404,
      /^We found no order for this checkout session\.$/,
    );
  });

  it("refuses an order that is not paid, and a reason that is empty, too long or not plain text", async () => {
    const db = getDb();
    await sale(newEmail());
    const { listing } = await seller;
    const pending = await startCheckout(db, new TestCheckoutProvider(), {
      listingIds: [listing.id],
      customer: { name: "Bea", email: newEmail() },
      origin: "http://localhost:3000",
      now: new Date(),
    });
    await expectRefused(() => ask(pending.sessionId), 409, /this one is pending/);
    const bought = await sale(newEmail());
    for (const reason of ["", "   ", "x".repeat(1001), "a\u0000b"]) {
      const before = await fingerprint();
      expect((await ask(bought.sessionId, reason)).status).toBe(400);
      expectUnchanged(before, await fingerprint(), "a bad reason");
    }
  });
});

describe("the library's refund form", () => {
  /** Posts the library's form as a browser does (no JavaScript): where it lands, and its flash. */
  async function askFromLibrary(token: string, orderId: string, reason = "Blurry at full size.") {
    const response = await callRoute(
      refundForms,
      formRequest("/refund-requests", { intent: "library", token, orderId, reason }),
    );
    expect(response.status).toBe(302);
    return response.headers.get("Location");
  }

  async function library(token: string) {
    const response = await callRoute(
      libraryPage,
      makeRequest(`/library?token=${encodeURIComponent(token)}`),
    );
    return (await response.json()) as {
      orders: {
        orderId: string;
        refundRequest: { status: string; declineReason: string | null } | null;
        refundableUntil: string | null;
      }[];
    };
  }

  it("takes the request of the token's own order, and the library shows its state", async () => {
    const email = newEmail();
    const bought = await sale(email, 2 * DAY);
    const token = createLibraryToken(email, new Date());
    const paidAt = Date.parse((await orderRow(bought.orderId)).paid_at!);
    expect((await library(token)).orders).toEqual([
      expect.objectContaining({
        orderId: bought.orderId,
        refundRequest: null,
        refundableUntil: new Date(paidAt + 14 * DAY).toISOString(),
      }),
    ]);

    expect(await askFromLibrary(token, bought.orderId)).toBe(
      `/library?token=${encodeURIComponent(token)}#order-${bought.orderId}`,
    );
    expect(await requestsOf(bought.orderId)).toEqual([
      expect.objectContaining({ status: "requested", reason: "Blurry at full size." }),
    ]);
    expect((await library(token)).orders[0]).toMatchObject({
      refundRequest: { status: "requested" },
      refundableUntil: null,
    });
  });

  it("answers someone else's order as an unknown one, changing nothing", async () => {
    const mine = newEmail();
    await sale(mine);
    const theirs = await sale(newEmail());
    const token = createLibraryToken(mine, new Date());
    const before = await fingerprint();
    await askFromLibrary(token, theirs.orderId);
    await askFromLibrary(token, "no-such-order");
    await askFromLibrary(token, "a\u0000b");
    await askFromLibrary("not-a-token", theirs.orderId);
    // Only the flash cookie answered; nothing was stored.
    expectUnchanged(before, await fingerprint(), "a request for someone else's order");
    expect(await requestsOf(theirs.orderId)).toEqual([]);
  });
});

describe("the receipt's refund form", () => {
  it("asks with the checkout session and lands back on the receipt, which shows the request; a second post says why not", async () => {
    const bought = await sale(newEmail());
    const receipt = `/marketplace?session_id=${encodeURIComponent(bought.sessionId)}&success=true`;
    const shown = async () => {
      const page = await callRoute(marketplacePage, makeRequest(receipt));
      return ((await page.json()) as { purchase: Record<string, unknown> }).purchase;
    };
    expect(await shown()).toMatchObject({ success: true, refundRequest: null });

    const post = () =>
      callRoute(
        refundForms,
        formRequest("/refund-requests", {
          intent: "receipt",
          sessionId: bought.sessionId,
          reason: "Bought the wrong style.",
        }),
      );
    const asked = await post();
    expect(asked.status).toBe(302);
    expect(asked.headers.get("Location")).toBe(receipt);
    expect(await flashOf(asked)).toMatchObject({ kind: "success", title: "Refund requested" });
    expect(await shown()).toMatchObject({
      refundRequest: { status: "requested" },
      refundableUntil: null,
    });

    const again = await post();
    expect(again.headers.get("Location")).toBe(receipt);
    expect(await flashOf(again)).toMatchObject({
      kind: "error",
      title: "No refund was requested",
      description: expect.stringMatching(/already asked for/),
    });
    expect(await requestsOf(bought.orderId)).toHaveLength(1);
  });
});

describe("the admin's decision", () => {
  it("approves: the order is refunded through the refund path, the creator is told why, the library says so", async () => {
    const email = newEmail();
    const bought = await sale(email);
    const { body } = await ask(bought.sessionId);
    const id = String(body.id);

    const listed = await callRoute(
      api.list.loader,
      makeRequest("/api/admin/refund-requests?status=requested", { token: admin.token }),
    );
    expect(await listed.json()).toContainEqual(
      expect.objectContaining({
        id,
        orderId: bought.orderId,
        status: "requested",
        customerEmail: email,
        total: "$20.00",
        items: [expect.objectContaining({ title: "Harbor portrait" })],
      }),
    );
    await getDb().deleteFrom("jobs").execute();

    const approved = await adminCall("approve", id);
    expect(approved).toMatchObject({
      status: 200,
      body: { id, status: "refunded", orderStatus: "refunded" },
    });
    expect(await orderRow(bought.orderId)).toMatchObject({
      status: "refunded",
      refunded_cents: 2000,
      refund_reason: "Refunded on the buyer's request",
    });
    expect(await requestsOf(bought.orderId)).toEqual([
      expect.objectContaining({ status: "refunded", decided_by: admin.user.id }),
    ]);
    const shares = await selectWhere("earnings", "status", "order_id", bought.orderId);
    expect(shares).toEqual([{ status: "reversed" }]);
    const mail = await queuedMail();
    const toCreator = mail.find((message) => message.to === bought.creator.user.email)!;
    expect(toCreator.subject).toBe("A refund reversed your share of a sale on Selfie Studio");
    expect(toCreator.text).toContain(
      "Why: The buyer asked for a refund within the 14 days after payment in which buyers may ask, and it was granted.",
    );
    expect(mail.find((message) => message.to === email)?.subject).toBe(
      "Your Selfie Studio order was refunded",
    );

    // Decided once: approving or declining again is a 409 that changes nothing.
    const before = await fingerprint();
    expect(await adminCall("approve", id)).toMatchObject({ status: 409 });
    expect(await adminCall("decline", id, { reason: "Too late" })).toMatchObject({ status: 409 });
    expectUnchanged(before, await fingerprint(), "deciding twice");
  });

  it("declines with a reason the buyer is mailed; the order stays paid and the library shows why", async () => {
    const email = newEmail();
    const bought = await sale(email);
    const id = String((await ask(bought.sessionId)).body.id);
    await getDb().deleteFrom("jobs").execute();

    const declined = await adminCall("decline", id, {
      reason: "The file matches the preview exactly.",
    });
    expect(declined).toMatchObject({
      status: 200,
      body: { id, status: "declined", declineReason: "The file matches the preview exactly." },
    });
    expect(await orderRow(bought.orderId)).toMatchObject({ status: "paid", refunded_cents: 0 });
    const [toBuyer] = await queuedMail();
    expect(toBuyer).toMatchObject({
      to: email,
      subject: "Your refund request to Selfie Studio was declined",
    });
    expect(toBuyer.text).toContain("Why: The file matches the preview exactly.");
    const audit = await selectWhere("audit_log", ["actor_id", "action"], "subject_id", id);
    expect(audit).toEqual([{ actor_id: admin.user.id, action: "refund_request.decline" }]);

    const response = await callRoute(
      libraryPage,
      makeRequest(`/library?token=${encodeURIComponent(createLibraryToken(email, new Date()))}`),
    );
    const shelf = (await response.json()) as { orders: Record<string, unknown>[] };
    expect(shelf.orders[0]).toMatchObject({
      refundRequest: { status: "declined", declineReason: "The file matches the preview exactly." },
      refundableUntil: null,
    });
    // Asked once: a second request after a decline is refused.
    await expectRefused(() => ask(bought.sessionId), 409, /and declined/);
    expect(await adminCall("approve", id)).toMatchObject({ status: 409 });
  });

  it("a refund of the whole order made another way settles an open request", async () => {
    const bought = await sale(newEmail());
    const id = String((await ask(bought.sessionId)).body.id);
    const refunded = await callRoute(
      api.refund.action,
      makeRequest(`/api/admin/orders/${bought.orderId}/refund`, { token: admin.token, json: {} }),
      { orderId: bought.orderId },
    );
    expect(refunded.status).toBe(200);
    expect(await requestsOf(bought.orderId)).toEqual([
      expect.objectContaining({ id, status: "refunded" }),
    ]);
    expect(await adminCall("approve", id)).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/decided already: the order is refunded/) },
    });
  });

  it("answers an unknown request 404 and refuses what is not the admin's to call", async () => {
    expect(await adminCall("approve", "no-such-request")).toMatchObject({ status: 404 });
    expect(await adminCall("decline", "no-such-request", { reason: "x" })).toMatchObject({
      status: 404,
    });
    // An id holding a control character (which PostgreSQL refuses in text) is a 400, not a 500.
    expect(await adminCall("approve", "a\u0000b")).toMatchObject({ status: 400 });
    expect(await adminCall("decline", "a\u0000b", { reason: "x" })).toMatchObject({ status: 400 });
    const bought = await sale(newEmail());
    const id = String((await ask(bought.sessionId)).body.id);
    const creator = await createTestUser();
    const before = await fingerprint();
    const response = await callRoute(
      api.approve.action,
      makeRequest(`/api/admin/refund-requests/${id}/approve`, { token: creator.token, json: {} }),
      { id },
    );
    expect(response.status).toBe(403);
    expectUnchanged(before, await fingerprint(), "a creator's approval", ["api_tokens"]);
  });
});
