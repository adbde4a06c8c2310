import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { newId } from "~/infra/ids.server";
import { csvCell, csvDecimal, csvLine } from "~/lib/csv";
import { recordRefund } from "~/features/market/orders/refunds.server";
import { splitSale } from "~/features/payouts/public.server";
import { loader as salesCsvScreen } from "~/routes/_studio+/analytics_.sales[.]csv";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { updateWhere } from "#tests/setup/update-where";

const { loader: salesCsvApi } = apiRoute("/api/token-analytics/sales.csv");

type OrderStatus = "pending" | "paid" | "refunded" | "disputed" | "failed" | "expired";

/** An order of the listings given (at their prices), with each item's share in the ledger once it was paid. */
async function sell(
  items: { listingId: string; creatorId: string; title: string; priceCents: number }[],
  {
    paidAt,
    status = "paid",
    provider = "stripe",
  }: { paidAt: string | null; status?: OrderStatus; provider?: "stripe" | "test" },
): Promise<string> {
  const db = getDb();
  const orderId = newId();
  const at = paidAt ?? "2026-11-01T00:00:00.000Z";
  await db
    .insertInto("orders")
    .values({
      id: orderId,
      checkout_session_hash: newId(),
      license_id: newId(),
      provider,
      status,
      customer_name: "Private Buyer",
      customer_email: "private.buyer@example.com",
      customer_company: null,
      total_cents: items.reduce((sum, item) => sum + item.priceCents, 0),
      created_at: at,
      updated_at: at,
      paid_at: paidAt,
    })
    .execute();
  for (const [position, item] of items.entries()) {
    const itemId = newId();
    await db
      .insertInto("order_items")
      .values({
        id: itemId,
        order_id: orderId,
        listing_id: item.listingId,
        creator_id: item.creatorId,
        title: item.title,
        style: "anime",
        price_cents: item.priceCents,
        file_key: `listings/${item.listingId}.png`,
        file_mime_type: "image/png",
        created_at: at,
        position,
      })
      .execute();
    if (paidAt === null) continue;
    const { creatorCents, platformCents } = splitSale(item.priceCents);
    await db
      .insertInto("earnings")
      .values({
        id: newId(),
        order_item_id: itemId,
        order_id: orderId,
        creator_id: item.creatorId,
        listing_id: item.listingId,
        amount_cents: creatorCents,
        platform_fee_cents: platformCents,
        test_mode: provider === "test" ? 1 : 0,
        created_at: paidAt,
      })
      .execute();
  }
  return orderId;
}

async function refund(orderId: string, refundedTotalCents: number) {
  const outcome = await getDb()
    .transaction()
    .execute((trx) =>
      recordRefund(trx, orderId, {
        refundedTotalCents,
        reason: "Asked for",
        now: new Date("2026-11-15T00:00:00.000Z"),
        tellCreators: false,
      }),
    );
  expect(outcome.applied).toBe(true);
}

/** RFC 4180, enough for the test: quoted fields with doubled quotes, CRLF between records. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let field = "";
  let record: string[] = [];
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ",") {
      record.push(field);
      field = "";
    } else if (char === "\r" && text[i + 1] === "\n") {
      record.push(field);
      records.push(record);
      record = [];
      field = "";
      i++;
    } else field += char;
  }
  expect(field).toBe("");
  expect(record).toEqual([]);
  return records;
}

const HEADER = [
  "month",
  "listing_id",
  "title",
  "licence",
  "test",
  "items_sold",
  "gross",
  "discount",
  "refunded",
  "creator_share",
  "platform_fee",
  "currency",
];

async function salesOf(creator: { token: string }) {
  const response = await callRoute(
    salesCsvApi,
    makeRequest("/api/token-analytics/sales.csv", { token: creator.token }),
  );
  expect(response.status).toBe(200);
  const text = await response.text();
  return { response, text, rows: parseCsv(text) };
}

describe("CSV cells", () => {
  it("quote text with its quotes doubled, defuse a leading formula character, and write numbers bare", () => {
    expect(csvCell('Sunset, "golden"\nhour')).toBe('"Sunset, ""golden""\nhour"');
    for (const start of ["=", "+", "-", "@", "\t", "\r"])
      expect(csvCell(`${start}1+1`)).toBe(`"'${start}1+1"`);
    expect(csvCell("a=b")).toBe('"a=b"');
    expect(csvCell(3)).toBe("3");
    expect(csvCell(csvDecimal(8.5, 2))).toBe("8.50");
    expect(csvLine(["x", 1])).toBe('"x",1\r\n');
    expect(() => csvCell(Number.NaN)).toThrow();
  });
});

describe("the monthly sales CSV", () => {
  it("has one row per month, listing and licence of the creator's paid sales, refunds against them, test sales marked, nobody else's", async () => {
    const creator = await createTestUser();
    const other = await createTestUser();
    const plain = (await createListing(creator.user.id, { title: "Plain title" })).listing;
    const tricky = (await createListing(creator.user.id, { title: "Sunset" })).listing;
    const formula = (await createListing(creator.user.id, { title: "Formula" })).listing;
    const theirs = (await createListing(other.user.id, { title: "Not yours" })).listing;
    // Titles the form would refuse or that were typed long ago: a comma, quotes, a line break, a formula.
    const TRICKY = 'Sunset, "golden"\nhour';
    const FORMULA = '=HYPERLINK("http://example.com/x","click")';
    for (const [id, title] of [
      [tricky.id, TRICKY],
      [formula.id, FORMULA],
    ])
      await updateWhere("listings", { title }, "id", id);
    const item = (
      listing: { id: string; title: string },
      priceCents: number,
      creatorId = creator.user.id,
    ) => ({
      listingId: listing.id,
      creatorId,
      title: listing.title,
      priceCents,
    });

    // October: two sales of the plain listing, the second refunded in full.
    await sell([item(plain, 1000)], { paidAt: "2026-10-05T10:00:00.000Z" });
    const refunded = await sell([item(plain, 1000)], { paidAt: "2026-10-31T23:59:59.000Z" });
    await refund(refunded, 1000);
    // November: one order with three of theirs and another creator's item; a test sale; a disputed one refunded in part.
    await sell(
      [
        item(plain, 1000),
        item(tricky, 2000),
        item(formula, 500),
        item(theirs, 3000, other.user.id),
      ],
      { paidAt: "2026-11-01T00:00:00.000Z" },
    );
    await sell([item(plain, 1000)], { paidAt: "2026-11-03T08:00:00.000Z", provider: "test" });
    const disputed = await sell([item(formula, 500)], {
      paidAt: "2026-11-10T08:00:00.000Z",
      status: "disputed",
    });
    await refund(disputed, 200);
    // Checkouts that were never paid are no sales.
    await sell([item(plain, 1000)], { paidAt: null, status: "pending" });
    await sell([item(plain, 1000)], { paidAt: null, status: "expired" });
    await sell([item(plain, 1000)], { paidAt: null, status: "failed" });

    const { response, text, rows } = await salesOf(creator);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe(
      `attachment; filename="selfie-studio-sales-${new Date().toISOString().slice(0, 10)}.csv"`,
    );
    expect(response.headers.get("Cache-Control")).toBe("private, no-store");
    expect(rows[0]).toEqual(HEADER);
    const body = rows.slice(1);
    expect(body.map((row) => [row[0], row[2], row[4], row[5]])).toEqual([
      ["2026-10", "Plain title", "no", "2"],
      // "=" sorts before letters.
      ["2026-11", `'${FORMULA}`, "no", "2"],
      ["2026-11", "Plain title", "no", "1"],
      ["2026-11", "Plain title", "yes", "1"],
      ["2026-11", TRICKY, "no", "1"],
    ]);
    const byKey = new Map(body.map((row) => [`${row[0]} ${row[1]} ${row[4]}`, row]));
    // October: 2 sold for 20.00, 10.00 refunded: what is left is one sale's 8.50 and 1.50.
    expect(byKey.get(`2026-10 ${plain.id} no`)).toEqual([
      "2026-10",
      plain.id,
      "Plain title",
      "standard",
      "no",
      "2",
      "20.00",
      "0.00",
      "10.00",
      "8.50",
      "1.50",
      "USD",
    ]);
    expect(byKey.get(`2026-11 ${plain.id} yes`)?.slice(5)).toEqual([
      "1",
      "10.00",
      "0.00",
      "0.00",
      "8.50",
      "1.50",
      "USD",
    ]);
    expect(byKey.get(`2026-11 ${tricky.id} no`)?.slice(5, 11)).toEqual([
      "1",
      "20.00",
      "0.00",
      "0.00",
      "17.00",
      "3.00",
    ]);
    // The disputed sale's 2.00 refund shows against it; what remains adds up.
    const formulaRow = byKey.get(`2026-11 ${formula.id} no`)!;
    expect(formulaRow.slice(5, 9)).toEqual(["2", "10.00", "0.00", "2.00"]);
    for (const row of body)
      expect(
        Math.round((Number(row[6]) - Number(row[7]) - Number(row[8])) * 100),
        row.join("|"),
      ).toBe(Math.round((Number(row[9]) + Number(row[10])) * 100));

    // The escapes as written: quotes doubled, the line break inside its quotes, the formula defused.
    expect(text).toContain(`,"Sunset, ""golden""\nhour","standard",`);
    expect(text).toContain(`,"'=HYPERLINK(""http://example.com/x"",""click"")","standard",`);
    // Amounts and counts are bare numbers.
    expect(text).toContain(
      `"2026-10","${plain.id}","Plain title","standard","no",2,20.00,0.00,10.00,8.50,1.50,"USD"\r\n`,
    );
    // Nothing of the buyer, nothing of the other creator.
    expect(text).not.toContain("Private Buyer");
    expect(text).not.toContain("private.buyer@example.com");
    expect(text).not.toContain(theirs.id);
    expect(text).not.toContain("Not yours");

    // The other creator's file has their sale only.
    const { rows: otherRows } = await salesOf(other);
    expect(otherRows.slice(1).map((row) => [row[0], row[1], row[5], row[6]])).toEqual([
      ["2026-11", theirs.id, "1", "30.00"],
    ]);
  });

  it("is only the header for a creator without sales; 401 signed out on the API, sign-in on the screen, the file with the session", async () => {
    const creator = await createTestUser();
    const { rows } = await salesOf(creator);
    expect(rows).toEqual([HEADER]);

    const signedOut = await callRoute(salesCsvApi, makeRequest("/api/token-analytics/sales.csv"));
    expect(signedOut.status).toBe(401);
    expect(signedOut.headers.get("Content-Type")).toMatch(/application\/json/);

    const toSignIn = await callRoute(salesCsvScreen, makeRequest("/analytics/sales.csv"));
    expect(toSignIn.status).toBe(302);
    expect(toSignIn.headers.get("Location")).toMatch(/^\/auth\?/);
    const screen = await callRoute(
      salesCsvScreen,
      makeRequest("/analytics/sales.csv", { cookie: creator.cookie }),
    );
    expect(screen.status).toBe(200);
    expect(screen.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(screen.headers.get("Content-Disposition")).toMatch(
      /^attachment; filename="selfie-studio-sales-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect(parseCsv(await screen.text())).toEqual([HEADER]);
  });
});
