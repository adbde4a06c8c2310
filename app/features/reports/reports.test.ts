import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { getDb } from "~/infra/db.server";
import { getConfig, type Config } from "~/infra/config.server";
import { metricsText } from "~/infra/metrics.server";
import { listingPage } from "~/features/market/catalog/listing-page.server";
import { browseMarketplace } from "~/features/market/catalog/marketplace-search.server";
import { readReportFiguresAtScrape } from "~/boot/report-figures.server";
import { callRoute, makeRequest, ORIGIN } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { emptyDatabase, insertSale } from "#tests/setup/ledger-fixtures";
import { deliverOverSmtp, queuedMailTo } from "#tests/setup/mail-queue";
import { bannedFlag } from "#tests/setup/user-state";
import { testTies } from "#tests/setup/ties";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

/**
 * Reports and takedown (issue 44): anyone reports a listing or a storefront,
 * confirms by the mailed link, and the super admin removes or dismisses; an
 * intimate report hides its target at once; N upheld reports suspend the creator.
 */

const reportsApi = apiRoute("/api/reports");
const confirmApi = apiRoute("/api/reports/confirm");
const adminListApi = apiRoute("/api/admin/reports");
const decideApi = apiRoute("/api/admin/reports/{id}");
const marketplaceApi = apiRoute("/api/marketplace");

const config = getConfig() as Config & {
  REPORTS_PER_ADDRESS: number;
  UPHELD_REPORTS_TO_SUSPEND: number;
};
const saved = {
  perAddress: config.REPORTS_PER_ADDRESS,
  suspendAt: config.UPHELD_REPORTS_TO_SUSPEND,
};

let ipCounter = 0;
/** A fresh client address per call site, so the in-memory per-address limit of one test does not reach another. */
const nextIp = () => `198.51.100.${++ipCounter}`;

beforeEach(emptyDatabase);
afterEach(async () => {
  config.REPORTS_PER_ADDRESS = saved.perAddress;
  config.UPHELD_REPORTS_TO_SUSPEND = saved.suspendAt;
  vi.useRealTimers();
});

async function report(body: Record<string, unknown>, ip = nextIp()) {
  return callRoute(
    reportsApi.action,
    makeRequest("/api/reports", { json: body }),
    {},
    {
      ties: testTies,
      clientIp: ip,
      nonce: "test",
    },
  );
}

/** The token of the newest confirmation link mailed to `email` (still queued). */
async function mailedToken(email: string): Promise<string> {
  const mails = await queuedMailTo(email);
  const last = mails[mails.length - 1];
  const match = /\/reports\/confirm\?token=([A-Za-z0-9_-]+)/.exec(last?.text ?? "");
  if (!match) throw new Error(`No confirmation link mailed to ${email}`);
  return match[1];
}

async function confirm(token: string) {
  return callRoute(confirmApi.action, makeRequest("/api/reports/confirm", { json: { token } }));
}

/** Reports a listing and confirms it: the report's id, status and dueAt. */
async function reportAndConfirm(listingId: string, reason: string, email: string) {
  const sent = await report({ listingId, reason, email, details: "Please look at this." });
  expect(sent.status).toBe(202);
  const confirmed = await confirm(await mailedToken(email));
  expect(confirmed.status).toBe(200);
  return (await confirmed.json()) as { id: string; status: string; dueAt: string };
}

async function decide(token: string, id: string, decision: string, note = "Checked by hand.") {
  return callRoute(
    decideApi.action,
    makeRequest(`/api/admin/reports/${id}`, { json: { decision, note }, token }),
    { id },
  );
}

async function isPublic(listingId: string) {
  const db = getDb();
  const page = await listingPage(db, listingId, ORIGIN);
  const grid = await browseMarketplace(db, { limit: 50 });
  const api = await callRoute(marketplaceApi.loader, makeRequest("/api/marketplace"));
  const apiIds = ((await api.json()) as { items: { id: string }[] }).items.map((item) => item.id);
  const shown = [
    page !== null,
    grid.items.some((item) => item.id === listingId),
    apiIds.includes(listingId),
  ];
  // Every public read agrees (one predicate).
  expect(new Set(shown).size).toBe(1);
  return shown[0];
}

async function auditActions(subjectId: string) {
  const rows = await selectWhere("audit_log", ["action", "detail"], "subject_id", subjectId, "id");
  return rows.map((row) => row.action);
}

describe("a report", () => {
  it("of an intimate image hides it once confirmed; removal withdraws it, mails the creator and the reporter, and is audited", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser({ email: "creator-1@example.com" });
    const { listing } = await createListing(creator.user.id, { title: "Beach" });
    expect(await isPublic(listing.id)).toBe(true);

    const sent = await report({
      listingId: listing.id,
      reason: "intimate",
      email: "Reporter-1@Example.com",
      details: "That is me.",
    });
    expect(sent.status).toBe(202);
    expect(await sent.json()).toEqual({ message: expect.stringContaining("confirm") });
    // Unconfirmed, nothing is hidden and the admin sees nothing yet.
    expect(await isPublic(listing.id)).toBe(true);
    const before = await callRoute(
      adminListApi.loader,
      makeRequest("/api/admin/reports", { token: admin.token }),
    );
    expect(await before.json()).toEqual([]);

    const token = await mailedToken("Reporter-1@Example.com");
    const confirmed = await confirm(token);
    expect(confirmed.status).toBe(200);
    const opened = (await confirmed.json()) as { id: string; status: string; dueAt: string };
    expect(opened.status).toBe("open");
    expect(await isPublic(listing.id)).toBe(false);
    // The link used again answers the same report and changes nothing.
    expect(((await (await confirm(token)).json()) as { id: string }).id).toBe(opened.id);

    const listed = await callRoute(
      adminListApi.loader,
      makeRequest("/api/admin/reports?status=open", { token: admin.token }),
    );
    expect(listed.status).toBe(200);
    expect(await listed.json()).toEqual([
      expect.objectContaining({
        id: opened.id,
        listingId: listing.id,
        handle: null,
        reason: "intimate",
        details: "That is me.",
        dueAt: opened.dueAt,
        status: "open",
        decision: null,
        hidden: true,
      }),
    ]);

    const removed = await decide(admin.token, opened.id, "remove", "Confirmed with the reporter.");
    expect(removed.status).toBe(200);
    expect(await removed.json()).toMatchObject({
      id: opened.id,
      status: "closed",
      decision: "remove",
      note: "Confirmed with the reporter.",
      leftUp: [],
      creatorSuspended: false,
    });
    const row = await rowWhere("listings", ["status", "hidden_at"], "id", listing.id);
    expect(row).toEqual({ status: "withdrawn", hidden_at: null });
    expect(await isPublic(listing.id)).toBe(false);
    expect(await auditActions(opened.id)).toEqual(["report.remove"]);
    // Decided once: a second decision is refused.
    expect((await decide(admin.token, opened.id, "dismiss")).status).toBe(409);

    const received = await deliverOverSmtp();
    const to = (address: string) =>
      received
        .filter((mail) =>
          mail.envelope.to.some((rcpt) => rcpt.toLowerCase() === address.toLowerCase()),
        )
        .map((mail) => mail.parsed);
    const reporterMail = to("Reporter-1@Example.com");
    expect(reporterMail.map((mail) => mail.subject)).toEqual([
      "Confirm your report to Selfie Studio",
      "Your report to Selfie Studio: removed",
    ]);
    expect(reporterMail[1].text).toContain("Confirmed with the reporter.");
    const creatorMail = to("creator-1@example.com");
    expect(creatorMail).toHaveLength(1);
    expect(creatorMail[0].subject).toBe("Removed from Selfie Studio after a report");
    expect(creatorMail[0].text).toContain("“Beach”");
    // What the reporter typed is told to nobody.
    expect(creatorMail[0].text).not.toContain("That is me.");
  });

  it("dismissed, shows again what it hid, tells the reporter and is audited", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const opened = await reportAndConfirm(listing.id, "intimate", "reporter-2@example.com");
    expect(await isPublic(listing.id)).toBe(false);
    const dismissed = await decide(admin.token, opened.id, "dismiss", "Not the reporter.");
    expect(dismissed.status).toBe(200);
    expect(await dismissed.json()).toMatchObject({ status: "closed", decision: "dismiss" });
    expect(await isPublic(listing.id)).toBe(true);
    expect(await auditActions(opened.id)).toEqual(["report.dismiss"]);
    const mails = await queuedMailTo("reporter-2@example.com");
    expect(mails.map((mail) => mail.subject)).toEqual([
      "Confirm your report to Selfie Studio",
      "Your report to Selfie Studio: not removed",
    ]);
    expect(await queuedMailTo(creator.user.email)).toEqual([]);
    const closed = await callRoute(
      adminListApi.loader,
      makeRequest("/api/admin/reports?status=closed", { token: admin.token }),
    );
    expect(((await closed.json()) as { id: string }[]).map((r) => r.id)).toEqual([opened.id]);
  });

  it("that is not intimate leaves the listing up pending the decision", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    await reportAndConfirm(listing.id, "copyright", "reporter-3@example.com");
    expect(await isPublic(listing.id)).toBe(true);
  });

  it("sent twice by the same reporter for the same listing is one report", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const first = await reportAndConfirm(listing.id, "other", "same@example.com");
    const again = await report({
      listingId: listing.id,
      reason: "copyright",
      email: "SAME@example.com",
    });
    expect(again.status).toBe(202);
    const rows = await getDb().selectFrom("reports").selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: first.id, status: "open", reason: "other" });
    // Another reporter's report of it is another report.
    await report({ listingId: listing.id, reason: "other", email: "someone-else@example.com" });
    expect(await getDb().selectFrom("reports").select("id").execute()).toHaveLength(2);
  });

  it("of a storefront names its handle; of an unknown or withdrawn listing or storefront is a 404", async () => {
    const creator = await createTestUser();
    await updateWhere("users", { handle: "ada" }, "id", creator.user.id);
    const { listing } = await createListing(creator.user.id);
    const storefront = await report({
      handle: "ada",
      reason: "my-likeness",
      email: "r4@example.com",
    });
    expect(storefront.status).toBe(202);
    expect(
      await getDb().selectFrom("reports").select(["handle", "listing_id", "creator_id"]).execute(),
    ).toEqual([{ handle: "ada", listing_id: null, creator_id: creator.user.id }]);

    for (const target of [{ listingId: "no-such-listing" }, { handle: "nobody" }]) {
      const response = await report({ ...target, reason: "other", email: "r4@example.com" });
      expect(response.status).toBe(404);
      expect(await response.json()).toEqual({ message: expect.any(String) });
    }
    await updateWhere("listings", { status: "withdrawn" }, "id", listing.id);
    expect(
      (await report({ listingId: listing.id, reason: "other", email: "r4@example.com" })).status,
    ).toBe(404);
    expect(await getDb().selectFrom("reports").select("id").execute()).toHaveLength(1);
  });

  it("answers bad input 400 with fieldErrors", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const cases: [Record<string, unknown>, string][] = [
      [{ listingId: listing.id, reason: "spam", email: "a@example.com" }, "reason"],
      [{ listingId: listing.id, reason: "other", email: "not-an-email" }, "email"],
      [{ reason: "other", email: "a@example.com" }, "listingId"],
      [
        { listingId: listing.id, handle: "ada", reason: "other", email: "a@example.com" },
        "listingId",
      ],
    ];
    for (const [body, field] of cases) {
      const response = await report(body);
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { fieldErrors: Record<string, string[]> };
      expect(Object.keys(answer.fieldErrors)).toContain(field);
    }
    expect((await confirm("")).status).toBe(400);
    expect((await confirm("not-a-token")).status).toBe(404);
    expect(await getDb().selectFrom("reports").select("id").execute()).toEqual([]);
  });

  it("flooding from one address, or with one email, is a 429 with Retry-After and stores nothing", async () => {
    config.REPORTS_PER_ADDRESS = 2;
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const ip = nextIp();
    for (let i = 0; i < 2; i++)
      expect(
        (await report({ listingId: listing.id, reason: "other", email: `f${i}@example.com` }, ip))
          .status,
      ).toBe(202);
    const refused = await report(
      { listingId: listing.id, reason: "other", email: "f9@example.com" },
      ip,
    );
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ message: expect.stringContaining("Too many reports") });
    const stored = await getDb().selectFrom("reports").select("email").execute();
    expect(stored.map((row) => row.email).sort()).toEqual(["f0@example.com", "f1@example.com"]);
    expect(await queuedMailTo("f9@example.com")).toEqual([]);

    // One email from many addresses: 5 an hour.
    config.REPORTS_PER_ADDRESS = 100;
    for (let i = 0; i < 5; i++)
      expect(
        (await report({ listingId: listing.id, reason: "other", email: "one@example.com" })).status,
      ).toBe(202);
    const byEmail = await report({
      listingId: listing.id,
      reason: "other",
      email: "one@example.com",
    });
    expect(byEmail.status).toBe(429);
    expect(byEmail.headers.get("Retry-After")).toBeTruthy();
  });
});

describe("due times and the operator's figures", () => {
  it("a confirmed report is due 48 hours after confirmation; overdue ones are counted in /metrics and shown first", async () => {
    const creator = await createTestUser();
    const one = await createListing(creator.user.id);
    const two = await createListing(creator.user.id);
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date("2026-12-01T10:00:00.000Z"));
    await report({ listingId: one.listing.id, reason: "copyright", email: "due-1@example.com" });
    await report({ listingId: two.listing.id, reason: "other", email: "due-2@example.com" });
    // Confirmed an hour later: due 48 hours after the confirmation, not the report.
    vi.setSystemTime(new Date("2026-12-01T11:00:00.000Z"));
    const second = await (await confirm(await mailedToken("due-2@example.com"))).json();
    vi.setSystemTime(new Date("2026-12-01T12:00:00.000Z"));
    const first = await (await confirm(await mailedToken("due-1@example.com"))).json();
    expect(second.dueAt).toBe("2026-12-03T11:00:00.000Z");
    expect(first.dueAt).toBe("2026-12-03T12:00:00.000Z");

    readReportFiguresAtScrape();
    const figures = async (now: Date) => {
      const { body } = await metricsText(getDb(), now);
      const value = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, "m").exec(body)?.[1]);
      return { open: value("selfie_reports_open"), overdue: value("selfie_reports_overdue") };
    };
    expect(await figures(new Date("2026-12-03T10:59:00.000Z"))).toEqual({ open: 2, overdue: 0 });
    expect(await figures(new Date("2026-12-03T11:30:00.000Z"))).toEqual({ open: 2, overdue: 1 });
    expect(await figures(new Date("2026-12-03T12:00:01.000Z"))).toEqual({ open: 2, overdue: 2 });

    const admin = await createTestAdmin();
    const listed = await callRoute(
      adminListApi.loader,
      makeRequest("/api/admin/reports", { token: admin.token }),
    );
    expect(((await listed.json()) as { id: string }[]).map((r) => r.id)).toEqual([
      second.id,
      first.id,
    ]);
  });
});

describe("repeat offenders", () => {
  it("a creator with UPHELD_REPORTS_TO_SUSPEND upheld reports is suspended as a ban, shares held", async () => {
    config.UPHELD_REPORTS_TO_SUSPEND = 2;
    const admin = await createTestAdmin();
    const creator = await createTestUser();
    await insertSale(creator.user.id, { amountCents: 850, feeCents: 150 });
    const one = await createListing(creator.user.id);
    const two = await createListing(creator.user.id);
    const three = await createListing(creator.user.id);
    const a = await reportAndConfirm(one.listing.id, "copyright", "rep-a@example.com");
    const b = await reportAndConfirm(two.listing.id, "copyright", "rep-b@example.com");
    const first = await (await decide(admin.token, a.id, "remove")).json();
    expect(first.creatorSuspended).toBe(false);
    expect(await bannedFlag(creator.user.id)).toBe(0);
    const second = await (await decide(admin.token, b.id, "remove")).json();
    expect(second.creatorSuspended).toBe(true);
    expect(await bannedFlag(creator.user.id)).toBe(1);
    // The ban's rules: sessions and tokens end, the other listings leave the marketplace, owed shares are held.
    expect(await isPublic(three.listing.id)).toBe(false);
    expect(await rowsWhere("sessions", "user_id", creator.user.id)).toEqual([]);
    const shares = await selectWhere("earnings", "status", "creator_id", creator.user.id);
    expect(shares.map((share) => share.status)).toEqual(["held"]);
    expect(await auditActions(creator.user.id)).toEqual(["user.ban", "report.suspend"]);
    const mails = await queuedMailTo(creator.user.email);
    expect(mails.at(-1)?.text).toContain("Your account is suspended");
  });
});

describe("the admin endpoints", () => {
  it("answer 401 signed out and 403 to anyone but the super admin; a bad decision is a 400", async () => {
    const admin = await createTestAdmin();
    const someone = await createTestUser();
    expect((await callRoute(adminListApi.loader, makeRequest("/api/admin/reports"))).status).toBe(
      401,
    );
    expect(
      (
        await callRoute(
          adminListApi.loader,
          makeRequest("/api/admin/reports", { token: someone.token }),
        )
      ).status,
    ).toBe(403);
    expect((await decide(someone.token, "any", "remove")).status).toBe(403);
    expect(
      (
        await callRoute(
          decideApi.action,
          makeRequest("/api/admin/reports/any", { json: { decision: "remove", note: "x" } }),
          { id: "any" },
        )
      ).status,
    ).toBe(401);
    const bad = await decide(admin.token, "any", "delete");
    expect(bad.status).toBe(400);
    expect(Object.keys(((await bad.json()) as { fieldErrors: object }).fieldErrors)).toContain(
      "decision",
    );
    const noNote = await decide(admin.token, "any", "remove", "");
    expect(noNote.status).toBe(400);
    expect((await decide(admin.token, "no-such-report", "remove")).status).toBe(404);
    const badStatus = await callRoute(
      adminListApi.loader,
      makeRequest("/api/admin/reports?status=maybe", { token: admin.token }),
    );
    expect(badStatus.status).toBe(400);
  });
});
