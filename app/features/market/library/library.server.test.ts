import crypto from "node:crypto";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { MAIL_JOB } from "~/features/mail/mail-job.server";
import { fulfillOrder } from "~/features/market/orders/fulfillment.server";
import {
  createLibraryToken,
  verifyLibraryToken,
} from "~/features/market/library/library-token.server";
import { libraryOf } from "~/features/market/library/library.server";
import {
  GRANT_RENEWAL_HOURS,
  redeemDownload,
} from "~/features/market/orders/download-grants.server";
import { DOWNLOAD_GRANT_MAX_DOWNLOADS } from "~/features/market/types";
import { LIBRARY_LINK_SENT } from "~/features/market/library/library-schema";
import { action as libraryAction, loader as libraryPage } from "~/routes/_market+/library";
import { loader as downloadRoute } from "~/routes/_resources+/downloads.$token";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { readEml } from "#tests/setup/mail";
import { deliverQueuedMail, queuedMailTo } from "#tests/setup/mail-queue";
import { checkoutSessionHash } from "~/features/market/orders/orders.server";
import { apiRoute } from "#tests/setup/api-routes";
import { buyAtTestCheckout, downloadGrantsOf, payTestCheckout } from "#tests/setup/test-checkout";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";

const { action: createSessionApi } = apiRoute("/api/create-checkout-session");
const { action: libraryLinkApi } = apiRoute("/api/library-link");
const refundRoute = apiRoute("/api/admin/orders/{orderId}/refund");

const SECRET = "a-test-secret-that-is-long-enough-0123456789";
const newEmail = () => `buyer-${crypto.randomBytes(5).toString("hex")}@example.com`;

/** Buys the listings through the built-in test checkout, as a browser would; answers the session id. */
async function buy(email: string, listingIds: string[]): Promise<string> {
  return buyAtTestCheckout(listingIds, { name: "Bea <Buyer>", email }, { licenseType: "standard" });
}

const orderOf = (sessionId: string) =>
  rowWhere("orders", "*", "checkout_session_hash", checkoutSessionHash(sessionId));

async function openLibrary(pathAndQuery: string) {
  const response = await callRoute(libraryPage, makeRequest(pathAndQuery));
  expect(response.status).toBe(200);
  return (await response.json()) as {
    valid: boolean;
    email: string | null;
    orders: {
      orderId: string;
      total: string;
      items: {
        title: string;
        downloadUrl: string | null;
        licenseUrl: string;
        downloadsLeft: number;
      }[];
    }[];
  };
}

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

describe("the library token", () => {
  const now = new Date("2026-11-24T12:00:00.000Z");

  it("is valid for 24 hours for its email, normalized", () => {
    const token = createLibraryToken("  Bea@Example.COM ", now, SECRET);
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{43}$/);
    expect(verifyLibraryToken(token, now, SECRET)).toEqual({
      email: "bea@example.com",
      expiresAt: new Date("2026-11-25T12:00:00.000Z"),
    });
    expect(
      verifyLibraryToken(token, new Date(now.getTime() + 24 * 60 * 60 * 1000 - 1), SECRET)?.email,
    ).toBe("bea@example.com");
  });

  it("is refused once expired", () => {
    const token = createLibraryToken("bea@example.com", now, SECRET);
    expect(
      verifyLibraryToken(token, new Date(now.getTime() + 24 * 60 * 60 * 1000), SECRET),
    ).toBeNull();
  });

  it("is refused when tampered with, made for another email or under another secret", () => {
    const token = createLibraryToken("bea@example.com", now, SECRET);
    const [payload, mac] = token.split(".");
    const other = createLibraryToken("eve@example.com", now, SECRET);
    const longer = Buffer.from(`${now.getTime() + 48 * 60 * 60 * 1000}\nbea@example.com`).toString(
      "base64url",
    );
    const otherEmail = Buffer.from(
      `${now.getTime() + 24 * 60 * 60 * 1000}\neve@example.com`,
    ).toString("base64url");
    expect(verifyLibraryToken(`${longer}.${mac}`, now, SECRET)).toBeNull();
    expect(verifyLibraryToken(`${otherEmail}.${mac}`, now, SECRET)).toBeNull();
    expect(verifyLibraryToken(`${payload}.${other.split(".")[1]}`, now, SECRET)).toBeNull();
    expect(verifyLibraryToken(`${payload}.${mac.slice(0, -2)}AA`, now, SECRET)).toBeNull();
    expect(verifyLibraryToken(token, now, `${SECRET}-other`)).toBeNull();
    expect(verifyLibraryToken(other, now, SECRET)?.email).toBe("eve@example.com");
    for (const junk of [
      "",
      ".",
      "a.b.c",
      payload,
      `${payload}.`,
      "!!.??",
      `${"A".repeat(2000)}.x`,
    ]) {
      expect(verifyLibraryToken(junk, now, SECRET)).toBeNull();
    }
  });
});

describe("the buyer's library", () => {
  it("lists only that email's paid orders, newest first, and spends no download", async () => {
    const creator = await createTestUser();
    const a = await createListing(creator.user.id, { title: "First", price: 10 });
    const b = await createListing(creator.user.id, { title: "Second", price: 20 });
    const email = newEmail();
    const first = await buy(email, [a.listing.id]);
    const second = await buy(email, [b.listing.id, a.listing.id]);
    await buy(newEmail(), [b.listing.id]);
    // A pending order of the same email is not in the library.
    await callRoute(
      createSessionApi,
      makeRequest("/api/create-checkout-session", {
        json: { cartItems: [{ imageId: b.listing.id }], customerInfo: { name: "Bea", email } },
      }),
    );
    await getDb()
      .updateTable("orders")
      .set({ paid_at: "2026-01-01T00:00:00.000Z" })
      .where("id", "=", (await orderOf(first)).id)
      .execute();

    const library = await openLibrary(
      `/library?token=${createLibraryToken(email.toUpperCase(), new Date())}`,
    );
    expect(library.valid).toBe(true);
    expect(library.email).toBe(email);
    expect(library.orders.map((order) => order.orderId)).toEqual([
      (await orderOf(second)).id,
      (await orderOf(first)).id,
    ]);
    expect(library.orders[0]).toMatchObject({
      total: "$30.00",
      items: [{ title: "Second" }, { title: "First" }],
    });
    const item = library.orders[0].items[0];
    expect(item.licenseUrl).toBe(
      `http://localhost:3000/licenses/${(await orderOf(second)).license_id}`,
    );
    expect(item.downloadUrl).toMatch(/^http:\/\/localhost:3000\/downloads\/[A-Za-z0-9_-]{43}$/);
    expect(item.downloadsLeft).toBe(DOWNLOAD_GRANT_MAX_DOWNLOADS);

    const again = await openLibrary(`/library?token=${createLibraryToken(email, new Date())}`);
    expect(again.orders[0].items[0]).toMatchObject({
      downloadUrl: item.downloadUrl,
      downloadsLeft: DOWNLOAD_GRANT_MAX_DOWNLOADS,
    });
  });

  it("keeps a refunded order in the list, marked refunded, with nothing to download", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser();
    const a = await createListing(creator.user.id, { title: "Kept", price: 10 });
    const b = await createListing(creator.user.id, { title: "Refunded", price: 20 });
    const email = newEmail();
    const kept = await orderOf(await buy(email, [a.listing.id]));
    const refunded = await orderOf(await buy(email, [b.listing.id]));
    const answer = await callRoute(
      refundRoute.action,
      makeRequest(`/api/admin/orders/${refunded.id}/refund`, {
        method: "POST",
        json: { reason: "Asked for" },
        token: admin.token,
      }),
      { orderId: refunded.id },
    );
    expect(answer.status).toBe(200);
    const grantsOf = (orderId: string) => downloadGrantsOf(orderId);
    const grantsBefore = await grantsOf(refunded.id);

    const library = await openLibrary(`/library?token=${createLibraryToken(email, new Date())}`);
    const byId = new Map(library.orders.map((order) => [order.orderId, order]));
    expect(byId.get(kept.id)).toMatchObject({
      refunded: false,
      items: [{ title: "Kept", downloadUrl: expect.any(String) }],
    });
    expect(byId.get(refunded.id)).toMatchObject({
      refunded: true,
      items: [{ title: "Refunded", downloadUrl: null, downloadsLeft: 0, renewableAt: null }],
    });
    // Showing the refunded order neither issued nor renewed a download grant.
    expect(await grantsOf(refunded.id)).toEqual(grantsBefore);
  });

  it("renews a used-up or expired grant when shown, at most once per item a day", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, { title: "Renewed" });
    const email = newEmail();
    const order = await orderOf(await buy(email, [listing.id]));
    const db = getDb();
    const start = new Date();
    const [first] = (await libraryOf(db, email, "https://shop.example", start, 14))[0].items;
    const token = first.downloadUrl!.split("/").pop()!;
    for (let i = 0; i < DOWNLOAD_GRANT_MAX_DOWNLOADS; i++)
      expect((await redeemDownload(db, token, start)).ok).toBe(true);
    expect(await redeemDownload(db, token, start)).toEqual({ ok: false, reason: "exhausted" });

    // Used up within a day of being issued: no fresh grant yet.
    const soon = new Date(start.getTime() + 60 * 60 * 1000);
    const [waiting] = (await libraryOf(db, email, "https://shop.example", soon, 14))[0].items;
    expect(waiting.downloadUrl).toBeNull();
    expect(Date.parse(waiting.renewableAt!)).toBeGreaterThan(soon.getTime());

    // A day later: a fresh grant with a new link; the old one stays spent.
    const later = new Date(start.getTime() + GRANT_RENEWAL_HOURS * 60 * 60 * 1000 + 1000);
    const [renewed] = (await libraryOf(db, email, "https://shop.example", later, 14))[0].items;
    expect(renewed.downloadUrl).toMatch(/^https:\/\/shop\.example\/downloads\//);
    expect(renewed.downloadUrl).not.toBe(first.downloadUrl);
    expect(renewed.downloadsLeft).toBe(DOWNLOAD_GRANT_MAX_DOWNLOADS);
    expect((await redeemDownload(db, renewed.downloadUrl!.split("/").pop()!, later)).ok).toBe(true);
    expect((await redeemDownload(db, token, later)).ok).toBe(false);
    // Shown again: the same (working) grant, not another one.
    const [same] = (await libraryOf(db, email, "https://shop.example", later, 14))[0].items;
    expect(same.downloadUrl).toBe(renewed.downloadUrl);
    expect(await rowsWhere("download_grants", "order_id", order.id)).toHaveLength(1);

    // Expired (7 days) and issued over a day ago: renewed too.
    const weekLater = new Date(later.getTime() + 8 * 24 * 60 * 60 * 1000);
    const [fresh] = (await libraryOf(db, email, "https://shop.example", weekLater, 14))[0].items;
    expect(fresh.downloadUrl).not.toBe(renewed.downloadUrl);
    expect(Date.parse(fresh.expiresAt)).toBeGreaterThan(weekLater.getTime());
  });

  it("without a token, or with a bad or expired one, offers the form", async () => {
    expect(await openLibrary("/library")).toMatchObject({ valid: false, orders: [] });
    expect(await openLibrary("/library?token=nope")).toMatchObject({ valid: false, orders: [] });
    const expired = createLibraryToken(
      "bea@example.com",
      new Date(Date.now() - 25 * 60 * 60 * 1000),
    );
    expect(await openLibrary(`/library?token=${expired}`)).toMatchObject({
      valid: false,
      orders: [],
    });
  });
});

describe("the receipt", () => {
  it("is mailed once per purchase, and its library link leads to a download that serves the file", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id, {
      title: "Sunset <Portrait>",
      style: "anime",
      price: 25,
    });
    const email = newEmail();
    const sessionId = await buy(email, [listing.id]);
    const order = await orderOf(sessionId);

    // Paying again, and fulfilling again (a retried webhook or return), queue nothing more.
    await payTestCheckout(sessionId);
    expect((await fulfillOrder(getDb(), order.id, {}, new Date())).outcome).toBe("already-paid");
    expect(await queuedMailTo(email)).toHaveLength(1);

    // The buyer's receipt, beside the creator's sale notice.
    const mails = await Promise.all((await deliverQueuedMail()).map(readEml));
    expect(mails.map((entry) => entry.subject).sort()).toEqual([
      "You made a sale on Selfie Studio",
      "Your Selfie Studio receipt",
    ]);
    const mail = mails.find((entry) => entry.subject === "Your Selfie Studio receipt")!;
    expect(mail.subject).toBe("Your Selfie Studio receipt");
    expect(mail.text).toContain(
      "Sunset <Portrait> (Anime style), Standard Commercial License: $25.00",
    );
    expect(mail.text).toContain("Total: $25.00");
    expect(mail.text).toContain("Hello Bea <Buyer>,");
    expect(mail.html).toContain("Sunset &lt;Portrait&gt;");
    expect(mail.html).toContain("Bea &lt;Buyer&gt;");
    expect(mail.html).not.toContain("<Portrait>");
    expect(mail.html).toContain('lang="en"');
    // Never a download link: only the library.
    expect(`${mail.text}${mail.html}`).not.toContain("/downloads/");
    const link = mail.text!.match(/http:\/\/localhost:3000\/library\?token=\S+/)?.[0];
    expect(link).toBeTruthy();
    expect(mail.html).toContain(link!.replace(/&/g, "&amp;"));

    const url = new URL(link!);
    const library = await openLibrary(`${url.pathname}${url.search}`);
    expect(library.orders.map((entry) => entry.orderId)).toEqual([order.id]);
    const downloadUrl = library.orders[0].items[0].downloadUrl!;
    const token = downloadUrl.split("/").pop()!;
    const download = await callRoute(downloadRoute, makeRequest(`/downloads/${token}`), { token });
    expect(download.status).toBe(200);
    expect(download.headers.get("Content-Disposition")).toContain("attachment");
    expect((await download.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    expect(
      (await rowWhere("download_grants", "downloads_used", "order_id", order.id)).downloads_used,
    ).toBe(1);
  });
});

describe("asking for the library link", () => {
  it("answers 202 with the same body for any email, and mails only an email with paid orders", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const buyer = newEmail();
    await buy(buyer, [listing.id]);
    await getDb().deleteFrom("jobs").execute();

    const ask = (email: string) =>
      callRoute(libraryLinkApi, makeRequest("/api/library-link", { json: { email } }));
    const known = await ask(buyer.toUpperCase());
    const unknown = await ask(newEmail());
    expect(known.status).toBe(202);
    expect(unknown.status).toBe(202);
    expect(await known.json()).toEqual({ message: LIBRARY_LINK_SENT });
    expect(await unknown.json()).toEqual({ message: LIBRARY_LINK_SENT });
    const jobs = await selectWhere("jobs", "payload", "kind", MAIL_JOB);
    expect(jobs).toHaveLength(1);
    const [mail] = await queuedMailTo(buyer);
    expect(mail.subject).toBe("Your Selfie Studio library link");
    const link = mail.text.match(/http:\/\/localhost:3000\/library\?token=\S+/)![0];
    expect((await openLibrary(link.replace("http://localhost:3000", ""))).email).toBe(buyer);

    // Per email: past 3 an hour the answer is the same and nothing more is mailed.
    for (let i = 0; i < 3; i++) expect((await ask(buyer)).status).toBe(202);
    expect(await queuedMailTo(buyer)).toHaveLength(3);

    expect((await ask("not-an-email")).status).toBe(400);
  });

  it("the form on /library ends on the same confirmation for every email, without JavaScript", async () => {
    const response = await callRoute(libraryAction, formRequest("/library", { email: newEmail() }));
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe("/library?sent=1");
    const page = await callRoute(libraryPage, makeRequest("/library?sent=1"));
    expect(await page.json()).toMatchObject({
      valid: false,
      sent: true,
      sentMessage: LIBRARY_LINK_SENT,
    });
    const bad = await callRoute(libraryAction, formRequest("/library", { email: "nope" }));
    expect(bad.status).toBe(400);
  });
});
