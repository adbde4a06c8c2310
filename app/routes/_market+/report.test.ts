import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { action as reportAction, loader as reportLoader } from "~/routes/_market+/report";
import {
  action as confirmAction,
  loader as confirmLoader,
} from "~/routes/_market+/reports.confirm";
import { callRoute, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { queuedMailTo } from "#tests/setup/mail-queue";
import { createTestAdmin } from "#tests/setup/accounts";
import { insertReport } from "#tests/setup/reports";
import { action as adminAction } from "~/routes/_admin+/admin";
import { testTies } from "#tests/setup/ties";
import { rowWhere } from "#tests/setup/rows-where";

/** The report form and the confirmation page as a browser without JavaScript uses them. */
describe("/report and /reports/confirm without JavaScript", () => {
  it("a posted report redirects to the notice; the mailed link's page changes nothing until its button posts", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const page = await callRoute(reportLoader, makeRequest(`/report?listing=${listing.id}`));
    expect(page.status).toBe(200);

    const posted = await callRoute(
      reportAction,
      formRequest("/report", {
        listingId: listing.id,
        reason: "intimate",
        email: "nojs@example.com",
        details: "Me.",
      }),
    );
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe("/report?sent=1");

    const [mail] = await queuedMailTo("nojs@example.com");
    const link = /(\/reports\/confirm\?token=[A-Za-z0-9_-]+)/.exec(mail.text)![1];
    const token = new URL(link, "http://localhost").searchParams.get("token")!;
    // Opening the link (as a mail scanner does) confirms nothing.
    expect((await callRoute(confirmLoader, makeRequest(link))).status).toBe(200);
    const status = async () =>
      (await getDb().selectFrom("reports").select("status").executeTakeFirstOrThrow()).status;
    expect(await status()).toBe("unconfirmed");
    const confirmed = await callRoute(confirmAction, formRequest(link, { token }));
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get("Location")).toBe("/reports/confirm?confirmed=1");
    expect(await status()).toBe("open");
  });

  it("a bad form comes back with its fields' errors; an unknown listing's form is a 404", async () => {
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const refused = await callRoute(
      reportAction,
      formRequest("/report", { listingId: listing.id, email: "not-an-email" }),
      {},
      { ties: testTies, clientIp: "192.0.2.200", nonce: "test" },
    );
    expect(refused.status).toBe(400);
    const reply = (await refused.json()) as { error: Record<string, string[]> };
    expect(Object.keys(reply.error)).toEqual(expect.arrayContaining(["reason", "email"]));
    expect((await callRoute(reportLoader, makeRequest("/report?listing=nope"))).status).toBe(404);
    expect((await callRoute(reportLoader, makeRequest("/report"))).status).toBe(400);
  });

  it("the admin portal's Remove posts the decision as a plain form and lands back with a flash", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const id = await insertReport(listing, { status: "open" });
    const posted = await callRoute(
      adminAction,
      formRequest(
        "/admin",
        { intent: "decide-report", id, decision: "remove", note: "Upheld." },
        { cookie: admin.cookie },
      ),
    );
    expect(posted.status).toBe(302);
    expect(posted.headers.get("Location")).toBe("/admin#reports");
    const row = await rowWhere("reports", ["status", "decision"], "id", id);
    expect(row).toEqual({ status: "closed", decision: "remove" });
  });
});
