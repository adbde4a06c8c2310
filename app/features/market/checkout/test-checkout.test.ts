import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import {
  action as testCheckoutAction,
  loader as testCheckoutPage,
} from "~/routes/_market+/test-checkout.$sessionId";
import { loader as downloadRoute } from "~/routes/_resources+/downloads.$token";
import { loader as licensePage } from "~/routes/_market+/licenses.$licenseId";
import { loader as marketplacePage } from "~/routes/_market+/marketplace";
import { action as cartAction, loader as cartPage } from "~/routes/_market+/cart";
import { loader as monitorPage } from "~/routes/_market+/payment-monitor";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { checkoutSessionHash } from "~/features/market/orders/orders.server";
import { apiRoute } from "#tests/setup/api-routes";
import {
  cartCookieWith,
  downloadGrantsOf,
  earningsOf,
  payTestCheckout as pay,
} from "#tests/setup/test-checkout";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const { action: createSessionApi } = apiRoute("/api/create-checkout-session");
const { loader: paymentStatusApi } = apiRoute("/api/payment-status/{sessionId}");
const { loader: earningsApi } = apiRoute("/api/token-earnings");
const { loader: statsApi } = apiRoute("/api/token-stats");
const { action: webhookRoute, loader: webhookGet } = apiRoute("/api/webhooks/stripe");

const buyer = { name: "Bea Buyer", email: "Bea@Example.com", company: "Bea Co" };

async function createSession(
  body: unknown,
  options: { origin?: "same" | "cross" | "none"; contentType?: string } = {},
) {
  const response = await callRoute(
    createSessionApi,
    makeRequest("/api/create-checkout-session", {
      method: "POST",
      body: typeof body === "string" ? body : JSON.stringify(body),
      headers: { "Content-Type": options.contentType ?? "application/json" },
      origin: options.origin,
    }),
  );
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  return { status: response.status, body: await response.json() };
}

/** A checkout by the buyer of one new listing of a new creator's: the listing and the answer's body. */
async function newListingSession() {
  const creator = await createTestUser();
  const { listing } = await createListing(creator.user.id);
  const { body } = await createSession({
    cartItems: [{ imageId: listing.id }],
    customerInfo: buyer,
  });
  return { listing, body };
}

async function status(sessionId: string) {
  const response = await callRoute(
    paymentStatusApi,
    makeRequest(`/api/payment-status/${sessionId}`),
    { sessionId },
  );
  expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  return { status: response.status, body: await response.json() };
}

describe("POST /api/create-checkout-session (built-in test checkout)", () => {
  it("refuses bad requests with 400 JSON", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const withdrawn = await createListing(creator.user.id);
    await updateWhere("listings", { status: "withdrawn" }, "id", withdrawn.listing.id);
    const item = { imageId: listing.id, licenseType: "standard" };
    const cases: [string, unknown][] = [
      ["empty cart", { cartItems: [], customerInfo: buyer }],
      ["no cart", { customerInfo: buyer }],
      ["no customer", { cartItems: [item] }],
      ["missing name", { cartItems: [item], customerInfo: { email: buyer.email } }],
      ["blank name", { cartItems: [item], customerInfo: { name: "  ", email: buyer.email } }],
      ["missing email", { cartItems: [item], customerInfo: { name: buyer.name } }],
      ["bad email", { cartItems: [item], customerInfo: { name: buyer.name, email: "nope" } }],
      ["unknown listing", { cartItems: [{ imageId: "does-not-exist" }], customerInfo: buyer }],
      [
        "withdrawn listing",
        { cartItems: [item, { imageId: withdrawn.listing.id }], customerInfo: buyer },
      ],
      ["item without id", { cartItems: [{ licenseType: "standard" }], customerInfo: buyer }],
      [
        "unknown license",
        { cartItems: [{ imageId: listing.id, licenseType: "exclusive" }], customerInfo: buyer },
      ],
      ["cart not an array", { cartItems: "x", customerInfo: buyer }],
      ["malformed JSON", "{nope"],
      ["JSON array", "[]"],
    ];
    for (const [name, body] of cases) {
      const result = await createSession(body);
      expect(result.status, name).toBe(400);
      expect(typeof result.body.message, name).toBe("string");
    }
    expect(
      (await createSession({ cartItems: [item], customerInfo: { name: buyer.name } })).body.message,
    ).toContain("Please fill in your name and email address.");
    expect((await createSession({ cartItems: [], customerInfo: buyer })).body.message).toContain(
      "Your cart is empty",
    );
    const wrongType = await createSession(
      JSON.stringify({ cartItems: [item], customerInfo: buyer }),
      { contentType: "text/plain" },
    );
    expect(wrongType.status).toBe(400);
    expect(await rowsWhere("orders", "customer_email", "bea@example.com")).toHaveLength(0);
  });

  it("charges the database's prices whatever the client says, and the test checkout completes the purchase", async () => {
    const creator = await createTestUser({ firstName: "Cleo" });
    const a = await createListing(creator.user.id, {
      title: "Sunset Portrait",
      style: "anime",
      price: 25,
    });
    const b = await createListing(creator.user.id, {
      title: "Boardroom",
      style: "professional",
      price: "19.99",
    });

    const created = await createSession({
      cartItems: [
        { imageId: a.listing.id, licenseType: "standard", price: 0.01 },
        { image: { id: b.listing.id }, licenseType: "standard", price: "1" },
        { imageId: a.listing.id, price: 0 },
      ],
      customerInfo: buyer,
    });
    expect(created.status).toBe(200);
    const { url, sessionId } = created.body;
    expect(sessionId).toMatch(/^cs_testmode_[A-Za-z0-9_-]{40,}$/);
    expect(url).toBe(`http://localhost:3000/test-checkout/${sessionId}`);
    const order = await rowWhere(
      "orders",
      "*",
      "checkout_session_hash",
      checkoutSessionHash(sessionId),
    );
    expect(order).toMatchObject({
      status: "pending",
      provider: "test",
      total_cents: 4499,
      customer_email: "bea@example.com",
      customer_company: "Bea Co",
    });

    const before = await status(sessionId);
    expect(before.status).toBe(200);
    expect(before.body).toMatchObject({
      success: false,
      paymentStatus: "processing",
      total: 44.99,
      downloads: [],
      customerEmail: "bea@example.com",
    });

    const page = await callRoute(testCheckoutPage, makeRequest(`/test-checkout/${sessionId}`), {
      sessionId,
    });
    expect(page.status).toBe(200);
    expect(await page.json()).toMatchObject({
      status: "pending",
      total: "44.99",
      items: [{ title: "Sunset Portrait" }, { title: "Boardroom" }],
    });

    const paid = await pay(sessionId);
    expect(paid.status).toBe(302);
    expect(paid.headers.get("Location")).toBe(
      `/marketplace?session_id=${encodeURIComponent(sessionId)}&success=true`,
    );

    const after = await status(sessionId);
    expect(after.body).toMatchObject({
      success: true,
      paymentStatus: "completed",
      total: 44.99,
      error: null,
      testMode: true,
    });
    expect(after.body.downloads).toHaveLength(2);
    expect(after.body.downloads[0]).toMatchObject({
      style: "anime",
      filename: "sunset-portrait-anime.jpg",
    });
    expect(after.body.downloads[0].downloadUrl).toMatch(
      /^http:\/\/localhost:3000\/downloads\/[A-Za-z0-9_-]{43}$/,
    );
    expect(after.body.licenseUrl).toBe(`http://localhost:3000/licenses/${order.license_id}`);

    // The ledger: 85% to the creator (banker's rounding), the rest to the platform.
    const ledger = await getDb()
      .selectFrom("earnings")
      .selectAll()
      .where("order_id", "=", order.id)
      .orderBy("amount_cents", "desc")
      .execute();
    expect(ledger.map((row) => [row.amount_cents, row.platform_fee_cents])).toEqual([
      [2125, 375],
      [1699, 300],
    ]);

    // Paying twice changes nothing.
    expect((await pay(sessionId)).status).toBe(302);
    expect(await earningsOf(order.id)).toHaveLength(2);
    expect(await downloadGrantsOf(order.id)).toHaveLength(2);

    // The download: the clean, full-resolution file as an attachment with a readable name.
    const token = after.body.downloads[0].downloadUrl.split("/").pop();
    const head = await callRoute(
      downloadRoute,
      makeRequest(`/downloads/${token}`, { method: "HEAD" }),
      { token },
    );
    expect(head.status).toBe(200);
    const download = await callRoute(downloadRoute, makeRequest(`/downloads/${token}`), { token });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Disposition")).toBe(
      'attachment; filename="sunset-portrait-anime.jpg"',
    );
    expect(download.headers.get("Content-Type")).toBe("image/jpeg");
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.equals(await getFileStore().read(a.stylized.file_key!))).toBe(true);
    expect(download.headers.get("X-Downloads-Left")).toBe("4");
    for (let i = 0; i < 4; i++)
      expect(
        (await callRoute(downloadRoute, makeRequest(`/downloads/${token}`), { token })).status,
      ).toBe(200);
    const exhausted = await callRoute(downloadRoute, makeRequest(`/downloads/${token}`), { token });
    expect(exhausted.status).toBe(403);
    expect(exhausted.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect((await exhausted.json()).message).toMatch(/maximum/);

    // Expired and unknown links are 403 JSON too.
    const otherToken = after.body.downloads[1].downloadUrl.split("/").pop();
    await getDb()
      .updateTable("download_grants")
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where("order_id", "=", order.id)
      .execute();
    const expired = await callRoute(downloadRoute, makeRequest(`/downloads/${otherToken}`), {
      token: otherToken,
    });
    expect(expired.status).toBe(403);
    expect((await expired.json()).message).toMatch(/expired/);
    const unknown = await callRoute(downloadRoute, makeRequest("/downloads/nope"), {
      token: "nope",
    });
    expect(unknown.status).toBe(403);

    // The license page.
    const license = await callRoute(licensePage, makeRequest(`/licenses/${order.license_id}`), {
      licenseId: order.license_id,
    });
    expect(license.status).toBe(200);
    expect(await license.json()).toMatchObject({
      licenseName: "Standard Commercial License",
      orderId: order.id,
      buyer: { name: "Bea Buyer", company: "Bea Co" },
      total: "44.99",
      items: [
        { title: "Sunset Portrait", price: "25", creatorFirstName: "Cleo" },
        { title: "Boardroom", price: "19.99" },
      ],
    });

    // The creator's earnings and stats come from the ledger.
    const earnings = await (
      await callRoute(earningsApi, makeRequest("/api/token-earnings", { token: creator.token }))
    ).json();
    expect(earnings.totalEarnings).toBe(38.24);
    expect(earnings.records.map((record: { amount: string }) => record.amount).sort()).toEqual([
      "16.99",
      "21.25",
    ]);
    expect(
      earnings.records.map((record: { saleReference: string }) => record.saleReference).sort(),
    ).toEqual(
      (await selectWhere("order_items", "id", "order_id", order.id)).map((item) => item.id).sort(),
    );
    const stats = await (
      await callRoute(statsApi, makeRequest("/api/token-stats", { token: creator.token }))
    ).json();
    expect(stats).toMatchObject({
      totalImages: 2,
      totalStylized: 2,
      totalListed: 2,
      totalSales: 2,
      totalEarnings: 38.24,
    });
    expect((await callRoute(earningsApi, makeRequest("/api/token-earnings"))).status).toBe(401);
  });

  it("answers 404 for an unknown session and has no license or downloads before payment", async () => {
    expect((await status("cs_unknown")).status).toBe(404);
    const { body } = await newListingSession();
    const order = await rowWhere(
      "orders",
      "*",
      "checkout_session_hash",
      checkoutSessionHash(body.sessionId),
    );
    expect(
      (
        await callRoute(licensePage, makeRequest(`/licenses/${order.license_id}`), {
          licenseId: order.license_id,
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await callRoute(testCheckoutPage, makeRequest("/test-checkout/cs_nope"), {
          sessionId: "cs_nope",
        })
      ).status,
    ).toBe(404);
  });

  it("cancel closes the session: it reads as expired and can no longer be paid", async () => {
    const { listing, body } = await newListingSession();
    const cancelled = await callRoute(
      testCheckoutAction,
      formRequest(`/test-checkout/${body.sessionId}`, { intent: "cancel" }),
      {
        sessionId: body.sessionId,
      },
    );
    expect(cancelled.headers.get("Location")).toBe("/marketplace?checkout=cancelled");
    expect((await status(body.sessionId)).body).toMatchObject({
      success: false,
      paymentStatus: "expired",
      error: "The buyer cancelled the checkout",
    });
    const late = await pay(body.sessionId);
    expect(late.status).toBe(400);
    expect(await rowsWhere("earnings", "listing_id", listing.id)).toHaveLength(0);
  });

  it("refuses a cross-site pay (403) like every cookie-carrying form", async () => {
    const { body } = await newListingSession();
    const response = await pay(body.sessionId, { origin: "cross" });
    expect(response.status).toBe(403);
    expect((await status(body.sessionId)).body.paymentStatus).toBe("processing");
  });
});

describe("the cookie cart and the checkout form, without JavaScript", () => {
  it("adds and removes with redirects, checks out to the test checkout and shows the purchase on return", async () => {
    const creator = await createTestUser();
    const one = await createListing(creator.user.id, { title: "One", price: 10 });
    const two = await createListing(creator.user.id, { title: "Two", price: 20 });

    let cookie = "";
    const post = async (
      fields: Record<string, string>,
      options: { origin?: "same" | "cross" } = {},
    ) => {
      const response = await callRoute(
        cartAction,
        formRequest("/cart", fields, { cookie, origin: options.origin }),
      );
      cookie = cookiesFrom(response, cookie);
      return response;
    };
    const added = await post({
      intent: "add",
      listingId: one.listing.id,
      redirectTo: "/marketplace?style=anime",
    });
    expect(added.status).toBe(302);
    expect(added.headers.get("Location")).toBe("/marketplace?style=anime");
    await post({ intent: "add", listingId: two.listing.id, redirectTo: "https://evil.example/" });
    await post({ intent: "add", listingId: two.listing.id });
    let cart = await (await callRoute(cartPage, makeRequest("/cart", { cookie }))).json();
    expect(cart.items.map((item: { title: string }) => item.title)).toEqual(["One", "Two"]);
    expect(cart.totalCents).toBe(3000);

    const enhanced = await post({ intent: "remove", listingId: two.listing.id, enhanced: "1" });
    expect(await enhanced.json()).toMatchObject({ ok: true, count: 1 });
    expect(
      (await post({ intent: "add", listingId: two.listing.id }, { origin: "cross" })).status,
    ).toBe(403);
    expect((await post({ intent: "explode", listingId: two.listing.id })).status).toBe(400);

    // The marketplace page shows the cart from the cookie.
    const market = await (
      await callRoute(marketplacePage, makeRequest("/marketplace", { cookie }))
    ).json();
    expect(market.cart.map((item: { id: string }) => item.id)).toEqual([one.listing.id]);

    // Missing name and email: a 400 reply for the form, no order.
    const missing = await post({ intent: "checkout", name: "", email: "" });
    expect(missing.status).toBe(400);
    const reply = await missing.json();
    expect(reply.error.name).toEqual(["Please fill in your name and email address."]);
    expect(reply.error.email).toEqual(["Please fill in your name and email address."]);

    const checkout = await post({
      intent: "checkout",
      name: "Nora",
      email: "nora@example.com",
      company: "",
    });
    expect(checkout.status).toBe(302);
    const location = checkout.headers.get("Location")!;
    expect(location).toMatch(/^http:\/\/localhost:3000\/test-checkout\/cs_testmode_/);
    const sessionId = location.split("/").pop()!;
    await pay(sessionId);

    const back = await callRoute(
      marketplacePage,
      makeRequest(`/marketplace?session_id=${sessionId}&success=true`, { cookie }),
    );
    cookie = cookiesFrom(back, cookie);
    const data = await back.json();
    expect(data.purchase).toMatchObject({
      success: true,
      paymentStatus: "completed",
      testMode: true,
    });
    expect(data.purchase.downloads).toHaveLength(1);
    expect(data.cart).toEqual([]);
    cart = await (await callRoute(cartPage, makeRequest("/cart", { cookie }))).json();
    expect(cart.items).toEqual([]);

    // An unknown session on return shows the 'Payment Status Unknown' state rather than an error page.
    const unknown = await callRoute(
      marketplacePage,
      makeRequest("/marketplace?session_id=cs_nope&success=true"),
    );
    expect(unknown.status).toBe(200);
    expect((await unknown.json()).purchase).toBeNull();
  });

  it("checking out an empty cart is a 400 with a message", async () => {
    const response = await callRoute(
      cartAction,
      formRequest("/cart", { intent: "checkout", name: "N", email: "n@example.com" }),
    );
    expect(response.status).toBe(400);
    expect((await response.json()).error[""]).toEqual(["Your cart is empty"]);
  });

  it("drops listings that were withdrawn from the cart cookie", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const cookie = await cartCookieWith(listing.id);
    await updateWhere("listings", { status: "withdrawn" }, "id", listing.id);
    const page = await callRoute(cartPage, makeRequest("/cart", { cookie }));
    expect(await page.json()).toMatchObject({ items: [], unavailable: 1 });
    expect(cookiesFrom(page, cookie)).not.toContain("__cart");
  });
});

describe("/payment-monitor", () => {
  it("is for signed-in users and looks a session up from ?session_id", async () => {
    const signedOut = await callRoute(monitorPage, makeRequest("/payment-monitor?session_id=abc"));
    expect(signedOut.status).toBe(302);
    const { cookie } = await createTestUser();
    const empty = await (
      await callRoute(monitorPage, makeRequest("/payment-monitor", { cookie }))
    ).json();
    expect(empty).toEqual({
      sessionId: "",
      result: null,
      failed: false,
      notFound: false,
      sales: [],
    });
    const unknown = await (
      await callRoute(monitorPage, makeRequest("/payment-monitor?session_id=cs_nope", { cookie }))
    ).json();
    expect(unknown).toMatchObject({
      sessionId: "cs_nope",
      result: null,
      failed: true,
      notFound: true,
    });

    const { body } = await newListingSession();
    await pay(body.sessionId);
    const found = await (
      await callRoute(
        monitorPage,
        makeRequest(`/payment-monitor?session_id=${body.sessionId}`, { cookie }),
      )
    ).json();
    expect(found.result).toMatchObject({
      success: true,
      paymentStatus: "completed",
      customerEmail: "bea@example.com",
      total: 25,
    });
    expect(found.result.downloads).toHaveLength(1);
  });
});

describe("JSON answers for the edges", () => {
  it("the Stripe webhook without a configured secret is a JSON 404; other methods are JSON 405", async () => {
    const posted = await callRoute(
      webhookRoute,
      makeRequest("/api/webhooks/stripe", {
        method: "POST",
        body: "{}",
        origin: "none",
        headers: { "Stripe-Signature": "t=1,v1=x" },
      }),
    );
    expect(posted.status).toBe(404);
    expect(posted.headers.get("Content-Type")).toMatch(/^application\/json/);
    const get = await callRoute(webhookGet, makeRequest("/api/webhooks/stripe"));
    expect(get.status).toBe(405);
    const postStatus = await callRoute(
      paymentStatusApi,
      makeRequest("/api/payment-status/x", { method: "POST", body: "" }),
      { sessionId: "x" },
    );
    expect(postStatus.status).toBe(405);
    expect(postStatus.headers.get("Content-Type")).toMatch(/^application\/json/);
    const getCreate = await callRoute(
      createSessionApi,
      makeRequest("/api/create-checkout-session"),
    );
    expect(getCreate.status).toBe(405);
  });

  it("token stats need a signed-in caller", async () => {
    const response = await callRoute(statsApi, makeRequest("/api/token-stats"));
    expect(response.status).toBe(401);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
  });
});
