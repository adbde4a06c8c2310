import { beforeEach, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { HttpError } from "~/infra/errors.server";
import { invoke } from "~/infra/procedure.server";
import { plainContext } from "~/infra/call-context.server";
import { stylizeImage } from "~/features/studio/styles/procedures.server";
import { MAX_OPEN_STYLIZATIONS } from "~/features/studio/styles/stylized-images.server";
import { callRoute, makeRequest, ORIGIN } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { apiRoute } from "#tests/setup/api-routes";
import { stylizeRequest, useConfig, uploadedImage } from "#tests/setup/studio-api";
import { testTies } from "#tests/setup/ties";
import { selectWhere } from "#tests/setup/rows-where";

const stylizedRoute = apiRoute("/api/token-stylized-images/{id}");

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

const requestStyle = (imageId: string, token: string, style = "cartoon") =>
  stylizeRequest(imageId, { style }, { token });

const openCount = async (userId: string) =>
  (
    await getDb()
      .selectFrom("stylized_images")
      .select("id")
      .where("user_id", "=", userId)
      .where("status", "in", ["pending", "processing"])
      .execute()
  ).length;

/**
 * The database as a server sees it under load: every query answers a moment
 * later (after the event loop's other work), so concurrent requests interleave
 * between their queries.
 */
const busyDb = () =>
  getDb().withPlugin({
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      await new Promise((resolve) => setImmediate(resolve));
      return args.result;
    },
  });

describe("the open-styles cap", () => {
  it("holds when 30 stylize calls of one creator arrive at once", async () => {
    const { user, token } = await createTestUser();
    const image = await uploadedImage(token);
    const ctx = plainContext(ORIGIN, {
      ties: testTies,
      db: busyDb(),
      config: getConfig(),
      clientIp: "203.0.113.7",
      now: new Date(),
    });

    const outcomes = await Promise.allSettled(
      Array.from({ length: 30 }, () =>
        invoke(stylizeImage, user, { id: image.id, style: "cartoon" }, ctx),
      ),
    );
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(
      MAX_OPEN_STYLIZATIONS,
    );
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(refused).toHaveLength(30 - MAX_OPEN_STYLIZATIONS);
    for (const outcome of refused) {
      expect(outcome.reason).toBeInstanceOf(HttpError);
      expect(outcome.reason).toMatchObject({
        status: 429,
        message: `You already have ${MAX_OPEN_STYLIZATIONS} styles in progress. Please wait for them to finish.`,
        headers: { "Retry-After": "10" },
      });
    }
    expect(await openCount(user.id)).toBe(MAX_OPEN_STYLIZATIONS);
    const jobs = await selectWhere("jobs", ["user_id"], "kind", "stylize-image");
    expect(jobs).toEqual(
      Array.from({ length: MAX_OPEN_STYLIZATIONS }, () => ({ user_id: user.id })),
    );
  });

  it("answers the API's 30 concurrent stylize requests the same way", async () => {
    const { user, token } = await createTestUser();
    const image = await uploadedImage(token);
    const responses = await Promise.all(
      Array.from({ length: 30 }, () => requestStyle(image.id, token)),
    );
    expect(responses.filter((response) => response.status === 202)).toHaveLength(
      MAX_OPEN_STYLIZATIONS,
    );
    for (const response of responses.filter((r) => r.status !== 202)) {
      expect(response.status).toBe(429);
      expect(response.headers.get("Retry-After")).toBe("10");
    }
    expect(await openCount(user.id)).toBe(MAX_OPEN_STYLIZATIONS);
  });
});

describe("styles per day", () => {
  it("answers 429 with Retry-After past STYLIZATIONS_PER_DAY, and deleting styles does not give them back", async () => {
    useConfig({ STYLIZATIONS_PER_DAY: 3 });
    const { user, token } = await createTestUser();
    const image = await uploadedImage(token);
    const made: string[] = [];
    for (let n = 0; n < 3; n++) {
      const response = await requestStyle(image.id, token);
      expect(response.status).toBe(202);
      made.push((await response.json()).id);
    }
    // Deleting them frees the open cap but not the day's count.
    for (const id of made) {
      const deleted = await callRoute(
        stylizedRoute.action,
        makeRequest(`/api/token-stylized-images/${id}`, { method: "DELETE", token }),
        { id },
      );
      expect(deleted.status).toBe(204);
    }
    const refused = await requestStyle(image.id, token);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(23 * 60 * 60);
    expect(retryAfter).toBeLessThanOrEqual(24 * 60 * 60);
    expect((await refused.json()).message).toBe(
      "You have reached your limit of 3 styles a day. Please try again in 24 hours.",
    );
    expect(await openCount(user.id)).toBe(0);

    // A day later the oldest has left the window.
    await getDb()
      .updateTable("usage_events")
      .set({ created_at: new Date(Date.now() - 25 * 60 * 60 * 1000).toISOString() })
      .where("user_id", "=", user.id)
      .where("id", "=", (eb) =>
        eb
          .selectFrom("usage_events")
          .select((s) => s.fn.min("id").as("id"))
          .where("user_id", "=", user.id)
          .where("kind", "=", "stylize"),
      )
      .execute();
    expect((await requestStyle(image.id, token)).status).toBe(202);
    expect((await requestStyle(image.id, token)).status).toBe(429);
  });

  it("counts each creator on their own", async () => {
    useConfig({ STYLIZATIONS_PER_DAY: 1 });
    const alice = await createTestUser();
    const bob = await createTestUser();
    const aliceImage = await uploadedImage(alice.token);
    const bobImage = await uploadedImage(bob.token);
    expect((await requestStyle(aliceImage.id, alice.token)).status).toBe(202);
    expect((await requestStyle(aliceImage.id, alice.token)).status).toBe(429);
    expect((await requestStyle(bobImage.id, bob.token)).status).toBe(202);
  });
});
