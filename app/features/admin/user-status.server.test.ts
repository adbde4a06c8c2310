import fs from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getLocalFileStore } from "~/infra/file-store.server";
import { claimJob } from "~/infra/jobs/job-queue.server";
import { STYLIZE_JOB, requestStylization } from "~/features/studio/styles/stylized-images.server";
import { requestPublications } from "~/features/publishing/publications/publications.server";
import { CANCELLED_BY_SUSPENSION } from "~/lib/accounts";
import { callRoute, makeRequest, ORIGIN } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { studioWorker, testStyleEngine } from "#tests/setup/studio";
import { apiRoute } from "#tests/setup/api-routes";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";

const statusRoute = apiRoute("/api/admin/users/{userId}/{action}");

let admin: Awaited<ReturnType<typeof createTestAdmin>>;

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
  admin ??= await createTestAdmin();
});

const ban = async (userId: string) => {
  const response = await callRoute(
    statusRoute.action,
    makeRequest(`/api/admin/users/${userId}/ban`, { method: "POST", token: admin.token }),
    { userId, action: "ban" },
  );
  expect(response.status).toBe(200);
};

/** A creator with an original, `styles` styles asked for and one publication queued. */
async function busyCreator(styles = 2) {
  const { user } = await createTestUser();
  const done = await createStylizedImage(user.id);
  const stylized = [];
  for (let n = 0; n < styles; n++) {
    stylized.push(
      (await requestStylization(getDb(), {
        userId: user.id,
        imageId: done.image_id,
        style: "anime",
        provider: "local",
        now: new Date(),
      }))!,
    );
  }
  const [publication] = await requestPublications(getDb(), {
    userId: user.id,
    image: done,
    requests: [{ platform: "marketplace", blocked: null }],
    content: {
      title: "Queued",
      description: "",
      priceCents: 2500,
      tags: [],
      licensingEnabled: true,
      nftEnabled: false,
    },
    origin: ORIGIN,
    now: new Date(),
  });
  return { user, stylized, publication };
}

const styledFiles = () => fs.readdirSync(path.join(getLocalFileStore().root, "styled"));

const stylizedRow = (id: string) => rowWhere("stylized_images", "*", "id", id);
const jobsOf = (userId: string) => rowsWhere("jobs", "user_id", userId);

describe("a ban", () => {
  it("cancels the creator's queued styles, publications and jobs, and nobody else's", async () => {
    const banned = await busyCreator();
    const bystander = await busyCreator(1);
    await ban(banned.user.id);

    for (const job of await jobsOf(banned.user.id)) {
      expect(job).toMatchObject({
        status: "failed",
        last_error: CANCELLED_BY_SUSPENSION,
        locked_by: null,
      });
    }
    expect(await jobsOf(banned.user.id)).toHaveLength(3);
    for (const { id } of banned.stylized) {
      expect(await stylizedRow(id)).toMatchObject({
        status: "failed",
        error: CANCELLED_BY_SUSPENSION,
      });
    }
    const publication = await rowWhere("listing_platforms", "*", "id", banned.publication.id);
    expect(publication).toMatchObject({
      status: "failed",
      last_error: CANCELLED_BY_SUSPENSION,
      revision: 2,
    });

    expect((await jobsOf(bystander.user.id)).map((job) => job.status)).toEqual([
      "queued",
      "queued",
    ]);
    expect(await stylizedRow(bystander.stylized[0].id)).toMatchObject({
      status: "pending",
      error: null,
    });

    // The worker finds nothing of the banned creator's to do.
    const engine = testStyleEngine();
    await studioWorker(engine).drain();
    expect(engine.calls).toHaveLength(1); // the bystander's style
    expect(await stylizedRow(bystander.stylized[0].id)).toMatchObject({ status: "completed" });
  });

  it("stops a style a worker had already taken: it does no work and ends cancelled", async () => {
    const { user, stylized } = await busyCreator(1);
    await getDb().deleteFrom("jobs").where("kind", "!=", STYLIZE_JOB).execute();
    // A worker took the job, and its lease has run out (it died) by the time the next one looks.
    const taken = await claimJob(getDb(), {
      kinds: [STYLIZE_JOB],
      token: "gone",
      leaseMs: 60_000,
      now: new Date(),
    });
    expect(taken?.user_id).toBe(user.id);
    await getDb()
      .updateTable("jobs")
      .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
      .where("id", "=", taken!.id)
      .execute();
    await ban(user.id);
    expect((await jobsOf(user.id))[0].status).toBe("running");

    const engine = testStyleEngine();
    await studioWorker(engine).drain();
    expect(engine.calls).toEqual([]);
    expect((await jobsOf(user.id))[0]).toMatchObject({
      status: "failed",
      last_error: CANCELLED_BY_SUSPENSION,
    });
    expect(await stylizedRow(stylized[0].id)).toMatchObject({
      status: "failed",
      error: CANCELLED_BY_SUSPENSION,
      file_key: null,
    });
  });

  it("keeps nothing of a style whose engine was working when the ban came", async () => {
    const { user, stylized } = await busyCreator(1);
    await getDb().deleteFrom("jobs").where("kind", "!=", STYLIZE_JOB).execute();
    let release!: () => void;
    const engine = testStyleEngine({ gate: new Promise<void>((resolve) => (release = resolve)) });
    const worker = studioWorker(engine);
    await worker.tick();
    await expect.poll(() => engine.calls.length).toBe(1);
    await ban(user.id);
    release();
    await worker.drain();

    const row = await stylizedRow(stylized[0].id);
    expect(row).toMatchObject({ status: "failed", error: CANCELLED_BY_SUSPENSION, file_key: null });
    expect((await jobsOf(user.id))[0]).toMatchObject({
      status: "failed",
      last_error: CANCELLED_BY_SUSPENSION,
    });
    // Only the styled file the test made is left under styled/: the job's result was put away.
    const kept = await getDb()
      .selectFrom("stylized_images")
      .select("file_key")
      .where("file_key", "is not", null)
      .execute();
    expect(styledFiles().sort()).toEqual(kept.map((row) => path.basename(row.file_key!)).sort());
  });
});

describe("an erased account", () => {
  it("cannot be banned or unbanned: 409 with the reason, and its row does not change", async () => {
    const { user } = await createTestUser();
    await getDb()
      .updateTable("users")
      .set({ erased_at: new Date().toISOString() })
      .where("id", "=", user.id)
      .execute();
    const before = await rowWhere("users", ["banned", "updated_at"], "id", user.id);
    for (const action of ["ban", "unban"] as const) {
      const response = await callRoute(
        statusRoute.action,
        makeRequest(`/api/admin/users/${user.id}/${action}`, {
          method: "POST",
          token: admin.token,
        }),
        { userId: user.id, action },
      );
      expect(response.status).toBe(409);
      expect(await response.json()).toEqual({
        message: "This account was erased: it cannot be banned or unbanned.",
      });
    }
    const after = await rowWhere("users", ["banned", "updated_at"], "id", user.id);
    expect(after).toEqual(before);
  });
});
