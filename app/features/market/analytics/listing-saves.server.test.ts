import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { newId } from "~/infra/ids.server";
import { action as savedAction } from "~/routes/_market+/saved";
import { callRoute, cookiesFrom, formRequest, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { testTies } from "#tests/setup/ties";
import { apiRoute } from "#tests/setup/api-routes";
import { viewDay } from "~/features/market/catalog/marketplace-search.server";
import {
  recordListingSave,
  SAVES_COUNTED_PER_VISITOR_DAY,
} from "~/features/market/analytics/listing-saves.server";
import {
  forgetOldVisitorDays,
  VISITOR_DAYS_KEPT,
  visitorOf,
} from "~/features/market/analytics/listing-visitors.server";
import { creatorAnalytics } from "~/features/market/analytics/analytics.server";
import { updateWhere } from "#tests/setup/update-where";

const { loader: analyticsApi } = apiRoute("/api/token-analytics");
const DAY_MS = 24 * 60 * 60 * 1000;

/** A browser at `clientIp` (its own saved-listings cookie), signed in when `session` is given. */
function browser(clientIp: string, session = "") {
  const jar = { cookie: session };
  return async (intent: "save" | "remove", listingId: string) => {
    const response = await callRoute(
      savedAction,
      formRequest(
        "/saved",
        { intent, listingId, redirectTo: "/marketplace" },
        { cookie: jar.cookie },
      ),
      {},
      { ties: testTies, clientIp, nonce: "n" },
    );
    expect(response.status).toBe(302);
    jar.cookie = cookiesFrom(response, jar.cookie);
  };
}

async function savesOn(listingId: string, day: string): Promise<number | null> {
  const row = await getDb()
    .selectFrom("listing_days")
    .select("saves")
    .where("listing_id", "=", listingId)
    .where("day", "=", day)
    .executeTakeFirst();
  return row ? row.saves : null;
}

describe("saves of a listing", () => {
  it("count once per visitor, listing and day from POST /saved, never the creator's own, and store nothing of who saved", async () => {
    const creator = await createTestUser();
    const buyer = await createTestUser();
    const { listing } = await createListing(creator.user.id, { title: "Saved one" });
    const { listing: other } = await createListing(creator.user.id, { title: "Other one" });
    const today = viewDay(new Date());

    const anna = browser("198.51.100.41");
    await anna("save", listing.id);
    expect(await savesOn(listing.id, today)).toBe(1);
    // Saved already: nothing new. Removed and saved again the same day: the same visitor, no second count.
    await anna("save", listing.id);
    await anna("remove", listing.id);
    await anna("save", listing.id);
    expect(await savesOn(listing.id, today)).toBe(1);
    // Another listing counts on its own row.
    await anna("save", other.id);
    expect([await savesOn(listing.id, today), await savesOn(other.id, today)]).toEqual([1, 1]);
    // Another address, and a signed-in buyer (whatever the address), are other visitors.
    await browser("198.51.100.42")("save", listing.id);
    await browser("198.51.100.41", buyer.cookie)("save", listing.id);
    expect(await savesOn(listing.id, today)).toBe(3);
    // The creator saving their own listing does not count.
    await browser("198.51.100.43", creator.cookie)("save", listing.id);
    expect(await savesOn(listing.id, today)).toBe(3);

    // What is kept: a count on the day row, and for two days a keyed hash of the day and the visitor.
    const visitorRows = await getDb().selectFrom("listing_saves").selectAll().execute();
    expect(visitorRows).toHaveLength(4);
    const kept = JSON.stringify([
      visitorRows,
      await getDb().selectFrom("listing_days").selectAll().execute(),
    ]);
    for (const secret of [
      "198.51.100.41",
      "198.51.100.42",
      buyer.user.id,
      crypto.createHash("sha256").update("198.51.100.41").digest("hex"),
    ])
      expect(kept).not.toContain(secret);
    expect(Object.keys(visitorRows[0]!).sort()).toEqual(["day", "listing_id", "visitor_hash"]);

    const later = new Date(Date.now() + VISITOR_DAYS_KEPT * DAY_MS);
    await forgetOldVisitorDays(getDb(), later);
    expect(await getDb().selectFrom("listing_saves").selectAll().execute()).toEqual([]);
    expect(await savesOn(listing.id, today)).toBe(3);
  });

  it("count a visitor's saves up to the cap per day, then again the next day; a withdrawn or unknown listing counts nothing", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const { listing } = await createListing(creator.user.id);
    const day1 = new Date("2026-11-20T12:00:00.000Z");
    const visit = (at: Date) => visitorOf({ user: null, clientIp: "203.0.113.99", now: at });
    // The visitor has saved as many other listings as count today already.
    await db
      .insertInto("listing_saves")
      .values(
        Array.from({ length: SAVES_COUNTED_PER_VISITOR_DAY }, () => ({
          day: "2026-11-20",
          visitor_hash: visit(day1).visitorHash,
          listing_id: newId(),
        })),
      )
      .execute();
    expect(await recordListingSave(db, listing.id, visit(day1), day1)).toBe(false);
    expect(await savesOn(listing.id, "2026-11-20")).toBeNull();
    // Another visitor the same day is not capped.
    expect(
      await recordListingSave(
        db,
        listing.id,
        visitorOf({ user: null, clientIp: "203.0.113.98", now: day1 }),
        day1,
      ),
    ).toBe(true);
    // The next day the first visitor counts again.
    const day2 = new Date(day1.getTime() + DAY_MS);
    expect(await recordListingSave(db, listing.id, visit(day2), day2)).toBe(true);
    expect([
      await savesOn(listing.id, "2026-11-20"),
      await savesOn(listing.id, "2026-11-21"),
    ]).toEqual([1, 1]);

    expect(await recordListingSave(db, "no-such-listing", visit(day2), day2)).toBe(false);
    await updateWhere("listings", { status: "withdrawn" }, "id", listing.id);
    const day3 = new Date(day2.getTime() + DAY_MS);
    expect(await recordListingSave(db, listing.id, visit(day3), day3)).toBe(false);
  });
});

describe("saves and followers in a creator's analytics", () => {
  it("shows saves per day and per listing, and the confirmed followers (those new in the range apart), on the API too", async () => {
    const db = getDb();
    const creator = await createTestUser();
    const other = await createTestUser();
    const { listing } = await createListing(creator.user.id, { title: "Often saved" });
    const today = viewDay(new Date());
    await browser("198.51.100.51")("save", listing.id);
    await browser("198.51.100.52")("save", listing.id);

    const now = new Date();
    const follow = (
      creatorId: string,
      status: "confirmed" | "unconfirmed",
      confirmedDaysAgo: number | null,
    ) =>
      db
        .insertInto("follows")
        .values({
          id: newId(),
          creator_id: creatorId,
          email: `fan-${newId()}@example.com`,
          email_key: `fan-${newId()}@example.com`,
          status,
          token_hash: status === "confirmed" ? null : newId(),
          created_at: now.toISOString(),
          confirmed_at:
            confirmedDaysAgo === null
              ? null
              : new Date(now.getTime() - confirmedDaysAgo * DAY_MS).toISOString(),
        })
        .execute();
    await follow(creator.user.id, "confirmed", 0);
    await follow(creator.user.id, "confirmed", 2);
    await follow(creator.user.id, "confirmed", 40);
    await follow(creator.user.id, "unconfirmed", null);
    await follow(other.user.id, "confirmed", 1);

    const week = await creatorAnalytics(db, creator.user.id, 7, now, { includeTestSales: true });
    expect(week.followers).toEqual({ confirmed: 3, newInRange: 2 });
    expect(week.days.find((day) => day.date === today)?.saves).toBe(2);
    expect(week.listings).toEqual([expect.objectContaining({ listingId: listing.id, saves: 2 })]);
    const quarter = await creatorAnalytics(db, creator.user.id, 90, now, {
      includeTestSales: true,
    });
    expect(quarter.followers).toEqual({ confirmed: 3, newInRange: 3 });

    const response = await callRoute(
      analyticsApi,
      makeRequest("/api/token-analytics?days=7", { token: creator.token }),
    );
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      followers: unknown;
      days: { date: string; saves: number }[];
      listings: { listingId: string; saves: number }[];
    };
    expect(body.followers).toEqual({ confirmed: 3, newInRange: 2 });
    expect(body.days.at(-1)).toMatchObject({ date: today, saves: 2 });
    expect(body.listings[0]).toMatchObject({ listingId: listing.id, saves: 2 });
    // Counts only: no follower's address anywhere in the answer.
    expect(JSON.stringify(body)).not.toContain("@example.com");
  });
});
