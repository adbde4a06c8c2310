import fs from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { outboxFiles, startSmtpServer, addressesOf, type TestSmtpServer } from "../setup/mail";
import { eventually } from "./support/creator-session";
import { payInTestCheckout } from "./support/purchases";
import { ROOT, startRefused, startServer, type RunningServer } from "./support/server-process";

/**
 * With SMTP_URL set, a production server sends a purchase's receipt through a
 * real SMTP server (started here on a free port): the receipt names the buyer,
 * has a text and an HTML part, links to the buyer's library and never to a
 * /downloads/ address; the library link leads to a Download that serves the
 * bought file. Nothing is written to the outbox.
 */
const scratch = path.join(ROOT, "tests", ".tmp", "process-mail-receipt");
const PORT = 3661;
const BUYER = "receipt-buyer@mail.test";

let smtp: TestSmtpServer | undefined;
let server: RunningServer | undefined;

test.afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

interface LibraryData {
  valid: boolean;
  email?: string;
  orders: Array<{
    orderId: string;
    items: Array<{ title: string; downloadUrl: string | null; filename: string }>;
  }>;
}

test("a purchase's receipt goes out through SMTP and its library link leads to the file", async () => {
  test.setTimeout(120_000);
  fs.rmSync(scratch, { recursive: true, force: true });
  smtp = await startSmtpServer();
  server = await startServer({
    dataDir: path.join(scratch, "data"),
    port: PORT,
    seed: true,
    env: {
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      MAIL_FROM: "Selfie Studio <studio@selfie.example>",
      PUBLIC_URL: `http://localhost:${PORT}`,
    },
  });
  const app = server;

  // The seeded demo creator's listings are on sale; buy one in the test checkout.
  const market = await app.fetch("/api/marketplace?limit=100");
  expect(market.status).toBe(200);
  const { items } = (await market.json()) as { items: Array<{ id: string; title: string }> };
  expect(items.length).toBeGreaterThan(0);
  const listing = items[0];
  const created = await app.fetch("/api/create-checkout-session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      cartItems: [{ imageId: listing.id, licenseType: "standard" }],
      customerInfo: { name: "Receipt Buyer", email: BUYER },
    }),
  });
  expect(created.status, await created.clone().text()).toBe(200);
  const { sessionId } = (await created.json()) as { sessionId: string };
  await payInTestCheckout(app, sessionId);

  // The mail worker delivers the receipt to the SMTP server.
  const mail = await eventually(
    "the receipt at the SMTP server",
    () => smtp!.received.find((each) => each.parsed.subject === "Your Selfie Studio receipt"),
    45_000,
    100,
  );
  expect(mail.envelope.to).toEqual([BUYER]);
  expect(mail.envelope.from).toBe("studio@selfie.example");
  expect(addressesOf(mail.parsed.to)).toEqual([BUYER]);
  const text = mail.parsed.text ?? "";
  const html = typeof mail.parsed.html === "string" ? mail.parsed.html : "";
  expect(text).toContain(listing.title);
  expect(html).toContain("<html");
  expect(`${text}\n${html}`).not.toContain("/downloads/");
  const link = text.match(/https?:\/\/\S+\/library\?token=[A-Za-z0-9_.~%-]+/)?.[0];
  expect(link, text).toBeTruthy();
  const libraryUrl = new URL(link!);
  expect(libraryUrl.origin).toBe(app.origin);
  expect(html).toContain(`${libraryUrl.pathname}${libraryUrl.search}`.replaceAll("&", "&amp;"));

  // The library page lists the purchase with a Download link.
  const page = await app.fetch(`${libraryUrl.pathname}${libraryUrl.search}`);
  expect(page.status).toBe(200);
  expect(page.headers.get("content-type")).toMatch(/text\/html/);
  expect(await page.text()).toContain('data-testid="download-link"');
  const data = await app.fetch(
    `${libraryUrl.pathname}${libraryUrl.search}&_data=${encodeURIComponent("routes/_market+/library")}`,
  );
  expect(data.status).toBe(200);
  const library = (await data.json()) as LibraryData;
  expect(library.valid).toBe(true);
  expect(library.email).toBe(BUYER);
  const item = library.orders
    .flatMap((order) => order.items)
    .find((each) => each.title === listing.title);
  expect(item?.downloadUrl, JSON.stringify(library)).toBeTruthy();

  // The Download serves the bought file as an attachment.
  const downloadUrl = new URL(item!.downloadUrl!, app.origin);
  expect(downloadUrl.origin).toBe(app.origin);
  const download = await app.fetch(`${downloadUrl.pathname}${downloadUrl.search}`);
  expect(download.status).toBe(200);
  expect(download.headers.get("content-disposition") ?? "").toMatch(/^attachment/);
  const bytes = Buffer.from(await download.arrayBuffer());
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  const png = bytes
    .subarray(0, 8)
    .equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(jpeg || png, `a JPEG or PNG, starting ${bytes.subarray(0, 8).toString("hex")}`).toBe(true);
  expect(bytes.length).toBeGreaterThan(1_000);
  expect(bytes.length).toBeLessThan(50_000_000);

  // Mail went through SMTP only: one receipt, and the outbox stays empty.
  expect(
    smtp.received.filter((each) => each.parsed.subject === "Your Selfie Studio receipt"),
  ).toHaveLength(1);
  expect(outboxFiles(path.join(app.dataDir, "outbox"))).toEqual([]);
});

test("a production start with SMTP_URL but without MAIL_FROM is refused, saying why", async () => {
  const { code, output } = await startRefused({
    dataDir: path.join(scratch, "refused"),
    port: 3400,
    env: { ALLOW_TEST_CHECKOUT: "true", SMTP_URL: "smtp://127.0.0.1:2525" },
  });
  expect(code).toBe(1);
  expect(output).toContain("MAIL_FROM: is required when NODE_ENV=production and SMTP_URL is set");
  expect(output).not.toContain("is serving");
});
