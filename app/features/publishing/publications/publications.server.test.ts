import { beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import type { PlatformId } from "~/features/publishing/platforms";
import {
  requestPublications,
  PUBLISH_JOB,
} from "~/features/publishing/publications/publications.server";
import { callRoute, makeRequest, ORIGIN } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage, listingContent } from "#tests/setup/market";
import { expectUnchanged, fingerprint } from "#tests/reliability/db-fingerprint";
import { apiRoute } from "#tests/setup/api-routes";

const launch = apiRoute("/api/marketplace/launch");

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

const content = listingContent();

async function publish(userId: string, platforms: PlatformId[], maxQueuedJobs?: number) {
  const image = await createStylizedImage(userId);
  return requestPublications(getDb(), {
    userId,
    image,
    requests: platforms.map((platform) => ({ platform, blocked: null })),
    content,
    origin: ORIGIN,
    now: new Date(),
    maxQueuedJobs,
  });
}

const waitingJobs = (userId: string) =>
  getDb()
    .selectFrom("jobs")
    .select(["id", "user_id"])
    .where("kind", "=", PUBLISH_JOB)
    .where("user_id", "=", userId)
    .where("status", "in", ["queued", "running"])
    .execute();

describe("publishing jobs per creator", () => {
  it("enqueues each job with its creator, and refuses a request that would pass the bound as a whole", async () => {
    const { user } = await createTestUser();
    const other = await createTestUser();
    await publish(user.id, ["marketplace"], 3);
    await publish(user.id, ["marketplace"], 3);
    expect(await waitingJobs(user.id)).toEqual([
      { id: expect.any(String), user_id: user.id },
      { id: expect.any(String), user_id: user.id },
    ]);

    const image = await createStylizedImage(user.id);
    const before = await fingerprint();
    await expect(
      requestPublications(getDb(), {
        userId: user.id,
        image,
        requests: [
          { platform: "marketplace", blocked: null },
          { platform: "opensea", blocked: null },
        ],
        content,
        origin: ORIGIN,
        now: new Date(),
        maxQueuedJobs: 3,
      }),
    ).rejects.toMatchObject({
      status: 429,
      message:
        "You can have at most 3 publishing jobs waiting at once, and 2 are waiting now. Please wait for them to finish.",
    });
    expectUnchanged(before, await fingerprint(), "a refused publication");

    // Blocked platforms queue no job and are not counted; another creator has their own bound.
    await requestPublications(getDb(), {
      userId: user.id,
      image,
      requests: [
        { platform: "opensea", blocked: { status: "needs_auth", error: "Connect OpenSea first." } },
      ],
      content,
      origin: ORIGIN,
      now: new Date(),
      maxQueuedJobs: 2,
    });
    await publish(other.user.id, ["marketplace"], 1);
    await publish(user.id, ["marketplace"], 3);
    expect(await waitingJobs(user.id)).toHaveLength(3);
  });

  it("answers the launch API with 429 and a JSON message past PUBLISH_JOBS_PER_CREATOR, changing nothing", async () => {
    const config = getConfig();
    const saved = config.PUBLISH_JOBS_PER_CREATOR;
    config.PUBLISH_JOBS_PER_CREATOR = 2;
    onTestFinished(() => void (config.PUBLISH_JOBS_PER_CREATOR = saved));
    const { user, token } = await createTestUser();
    await publish(user.id, ["marketplace"]);
    await publish(user.id, ["marketplace"]);
    const image = await createStylizedImage(user.id);

    const before = await fingerprint();
    const response = await callRoute(
      launch.action,
      makeRequest("/api/marketplace/launch", {
        token,
        json: { imageId: image.id, title: "One more", price: 25, platforms: ["marketplace"] },
      }),
    );
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("30");
    expect(await response.json()).toEqual({
      message:
        "You can have at most 2 publishing jobs waiting at once, and 2 are waiting now. Please wait for them to finish.",
    });
    expectUnchanged(before, await fingerprint(), "a refused launch");
  });
});
