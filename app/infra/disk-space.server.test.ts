import { beforeEach, describe, expect, it, onTestFinished } from "vitest";
import { flashOf } from "#tests/setup/flash";
import * as dashboard from "~/routes/_studio+/dashboard";
import * as listings from "~/routes/_studio+/listings";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { enqueueJob } from "~/infra/jobs/job-queue.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import {
  ensureFreeSpace,
  OUT_OF_STORAGE,
  setFreeBytesProbe,
  statfsFreeBytes,
} from "~/infra/disk-space.server";
import { STYLIZE_JOB } from "~/features/studio/styles/stylized-images.server";
import {
  PUBLISH_JOB,
  publishJobHandler,
} from "~/features/publishing/publications/publishing-job.server";
import { requestPublications } from "~/features/publishing/publications/publications.server";
import { callRoute, formRequest, makeRequest, ORIGIN } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage, listingContent } from "#tests/setup/market";
import { fixture, studioWorker, testStyleEngine, uploadRequest } from "#tests/setup/studio";
import { expectUnchanged, fingerprint } from "#tests/reliability/db-fingerprint";
import { apiRoutes } from "#tests/setup/api-routes";
import { testTies } from "#tests/setup/ties";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";

const { upload, stylize, optimize, launch } = apiRoutes({
  upload: "/api/token-images/upload",
  stylize: "/api/token-images/{id}/stylize",
  optimize: "/api/images/optimize",
  launch: "/api/marketplace/launch",
});

const MB = 1024 * 1024;

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

/** The data volume reports `freeMb` free for the rest of the test. */
function volumeWithFree(freeMb: number) {
  onTestFinished(setFreeBytesProbe(async () => freeMb * MB));
}

describe("ensureFreeSpace", () => {
  it("refuses with 507 under MIN_FREE_DISK_MB and lets writes through at or above it", async () => {
    const config = { dataDir: getConfig().dataDir, MIN_FREE_DISK_MB: 200 };
    volumeWithFree(199);
    await expect(ensureFreeSpace(config)).rejects.toMatchObject({
      status: 507,
      message: OUT_OF_STORAGE,
    });
    volumeWithFree(200);
    await expect(ensureFreeSpace(config)).resolves.toBeUndefined();
    volumeWithFree(0);
    await expect(ensureFreeSpace({ ...config, MIN_FREE_DISK_MB: 0 })).resolves.toBeUndefined();
  });

  it("does not refuse when the volume cannot tell its free space", async () => {
    onTestFinished(
      setFreeBytesProbe(async () => {
        throw new Error("statfs is not supported here");
      }),
    );
    await expect(
      ensureFreeSpace({ dataDir: getConfig().dataDir, MIN_FREE_DISK_MB: 200 }),
    ).resolves.toBeUndefined();
  });

  it("measures the real data volume with statfs", async () => {
    expect(await statfsFreeBytes(getConfig().dataDir)).toBeGreaterThan(0);
  });
});

describe("a nearly full data volume", () => {
  it("refuses uploads on the API and on the dashboard with a clear message, storing nothing", async () => {
    const { token, cookie } = await createTestUser();
    volumeWithFree(10);
    const before = await fingerprint();

    const api = await callRoute(upload.action, uploadRequest(fixture("portrait.png"), { token }));
    expect(api.status).toBe(507);
    expect(await api.json()).toEqual({ message: OUT_OF_STORAGE });

    const form = await callRoute(
      dashboard.action,
      uploadRequest(fixture("portrait.png"), { cookie, url: "/dashboard" }),
    );
    expect(form.headers.get("Location")).toBe("/dashboard?step=upload#pipeline");
    expect(await flashOf(form)).toEqual({
      kind: "error",
      title: "Upload Failed",
      description: OUT_OF_STORAGE,
    });
    expectUnchanged(before, await fingerprint(), "uploads to a full volume");
  });

  it("refuses styles, optimizations, publishing and listing with 507, changing nothing", async () => {
    const { user, token, cookie } = await createTestUser();
    const styled = await createStylizedImage(user.id);
    volumeWithFree(10);
    const before = await fingerprint();

    const style = await callRoute(
      stylize.action,
      makeRequest(`/api/token-images/${styled.image_id}/stylize`, {
        token,
        json: { style: "anime" },
      }),
      { id: styled.image_id },
    );
    expect(style.status).toBe(507);
    expect(await style.json()).toEqual({ message: OUT_OF_STORAGE });

    const optimized = await callRoute(
      optimize.action,
      makeRequest("/api/images/optimize", {
        token,
        json: {
          imageId: styled.id,
          quality: 80,
          format: "jpg",
          resolution: "original",
          watermark: false,
          socialOptimized: false,
        },
      }),
    );
    expect(optimized.status).toBe(507);
    expect(await optimized.json()).toEqual({ message: OUT_OF_STORAGE });

    const launched = await callRoute(
      launch.action,
      makeRequest("/api/marketplace/launch", {
        token,
        json: { imageId: styled.id, title: "Full disk", price: 25, platforms: ["marketplace"] },
      }),
    );
    expect(launched.status).toBe(507);
    expect(await launched.json()).toEqual({ message: OUT_OF_STORAGE });

    const listed = await callRoute(
      listings.action,
      formRequest(
        "/listings",
        { stylizedImageId: styled.id, title: "Full disk", description: "", price: "25", tags: "" },
        { cookie },
      ),
    );
    expect(listed.status).toBe(507);
    expect((await listed.json()).error).toEqual({ "": [OUT_OF_STORAGE] });

    expectUnchanged(before, await fingerprint(), "writes to a full volume");
  });

  it("makes a queued style wait and try again instead of writing, telling the creator why", async () => {
    const { user } = await createTestUser();
    const styled = await createStylizedImage(user.id, { status: "pending" });
    await enqueueJob(getDb(), {
      kind: STYLIZE_JOB,
      payload: { stylizedImageId: styled.id },
      now: new Date(),
      userId: user.id,
    });
    const engine = testStyleEngine();
    volumeWithFree(10);
    const worker = studioWorker(engine, {
      concurrency: 1,
      ensureSpace: () => ensureFreeSpace(getConfig()),
    });
    await worker.drain();

    expect(engine.calls).toEqual([]);
    const row = await rowWhere("stylized_images", "*", "id", styled.id);
    expect(row).toMatchObject({ status: "pending", error: OUT_OF_STORAGE, file_key: null });
    const job = await getDb().selectFrom("jobs").selectAll().executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: "queued", attempts: 1, last_error: OUT_OF_STORAGE });
  });

  it("makes a queued publication wait and try again instead of writing", async () => {
    const { user } = await createTestUser();
    const styled = await createStylizedImage(user.id);
    const [publication] = await requestPublications(getDb(), {
      userId: user.id,
      image: styled,
      requests: [{ platform: "marketplace", blocked: null }],
      content: listingContent("Later"),
      origin: ORIGIN,
      now: new Date(),
    });
    volumeWithFree(10);
    const worker = new JobWorker({
      db: getDb(),
      handlers: {
        [PUBLISH_JOB]: publishJobHandler({
          store: getFileStore(),
          ties: testTies,
          ensureSpace: () => ensureFreeSpace(getConfig()),
        }),
      },
      concurrency: 1,
      log: () => {},
    });
    await worker.drain();

    const row = await rowWhere("listing_platforms", "*", "id", publication.id);
    expect(row).toMatchObject({
      status: "queued",
      listing_id: null,
      last_error: `${OUT_OF_STORAGE} (trying again)`,
    });
    expect(await rowsWhere("listings", "user_id", user.id)).toEqual([]);
    const job = await getDb().selectFrom("jobs").selectAll().executeTakeFirstOrThrow();
    expect(job).toMatchObject({ status: "queued", attempts: 1, user_id: user.id });
  });
});
