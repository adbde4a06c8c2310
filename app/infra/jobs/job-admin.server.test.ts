import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import {
  CANCELLED_BY_ADMIN,
  cancelJob,
  claimJob,
  completeJob,
  enqueueJob,
  failJob,
  listJobProblems,
  requeueFailedJob,
} from "~/infra/jobs/job-queue.server";
import { withLogContext } from "~/infra/log-context.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestAdmin, createTestUser } from "#tests/setup/accounts";
import { apiRoute } from "#tests/setup/api-routes";
import { rowWhere } from "#tests/setup/rows-where";

const KIND = "admin-test";
const T0 = Date.parse("2026-11-27T10:00:00.000Z");
const at = (ms: number) => new Date(T0 + ms);

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

const claim = (token: string, now: Date) =>
  claimJob(getDb(), { kinds: [KIND], token, leaseMs: 60_000, now });

const jobRow = (id: string) => rowWhere("jobs", "*", "id", id);

/** A job that failed for good (its one attempt failed). */
async function failedJob() {
  const id = await enqueueJob(getDb(), { kind: KIND, payload: {}, now: at(0), maxAttempts: 1 });
  const claimed = await claim("w1", at(1));
  expect(claimed?.id).toBe(id);
  await failJob(getDb(), id, "w1", { error: "Provider said no", now: at(2) });
  return id;
}

describe("the admin's retry and cancel", () => {
  it("retry queues a failed job again with fresh attempts, and a worker can claim it", async () => {
    const id = await failedJob();
    const result = await requeueFailedJob(getDb(), id, at(10));
    expect(result.ok).toBe(true);
    const row = await jobRow(id);
    expect(row).toMatchObject({ status: "queued", attempts: 0, locked_by: null });
    expect((await claim("w2", at(11)))?.id).toBe(id);
  });

  it("retry refuses a job that is not failed (queued, running, done) and an unknown id", async () => {
    const queued = await enqueueJob(getDb(), { kind: KIND, payload: {}, now: at(0) });
    expect(await requeueFailedJob(getDb(), queued, at(1))).toEqual({
      ok: false,
      reason: "not-failed",
    });
    await claim("w1", at(2));
    expect(await requeueFailedJob(getDb(), queued, at(3))).toEqual({
      ok: false,
      reason: "running",
    });
    await completeJob(getDb(), queued, "w1", at(4));
    expect(await requeueFailedJob(getDb(), queued, at(5))).toEqual({
      ok: false,
      reason: "finished",
    });
    expect(await requeueFailedJob(getDb(), "nope", at(5))).toEqual({
      ok: false,
      reason: "not-found",
    });
  });

  it("two retries at once queue the job once", async () => {
    const id = await failedJob();
    const results = await Promise.all([
      requeueFailedJob(getDb(), id, at(10)),
      requeueFailedJob(getDb(), id, at(10)),
    ]);
    expect(results.filter((r) => r.ok)).toHaveLength(1);
  });

  it("cancel calls off a queued job for good: no worker claims it", async () => {
    const id = await enqueueJob(getDb(), { kind: KIND, payload: {}, now: at(0) });
    expect((await cancelJob(getDb(), id, at(1))).ok).toBe(true);
    expect(await jobRow(id)).toMatchObject({ status: "failed", last_error: CANCELLED_BY_ADMIN });
    expect(await claim("w1", at(2))).toBeNull();
  });

  it("cancel leaves a running job to its worker, whose outcome still counts", async () => {
    const id = await enqueueJob(getDb(), { kind: KIND, payload: {}, now: at(0) });
    await claim("w1", at(1));
    expect(await cancelJob(getDb(), id, at(2))).toEqual({ ok: false, reason: "running" });
    expect(await completeJob(getDb(), id, "w1", at(3))).toBe(true);
    expect((await jobRow(id)).status).toBe("done");
    expect(await cancelJob(getDb(), id, at(4))).toEqual({ ok: false, reason: "finished" });
  });

  it("a cancelled failed job leaves the problem list; a failed one and stuck ones are on it", async () => {
    const failed = await failedJob();
    const cancelled = await failedJob();
    await cancelJob(getDb(), cancelled, at(3));
    // Running with a lease that ran out: its worker is gone.
    const abandoned = await enqueueJob(getDb(), { kind: "other", payload: {}, now: at(0) });
    await claimJob(getDb(), { kinds: ["other"], token: "gone", leaseMs: 1000, now: at(1) });
    // Due for an hour and never claimed.
    const waiting = await enqueueJob(getDb(), { kind: "waits", payload: {}, now: at(0) });
    // Due a minute ago: not stuck yet.
    await enqueueJob(getDb(), { kind: "waits", payload: {}, now: at(59 * 60_000) });
    const problems = await listJobProblems(getDb(), {
      now: at(60 * 60_000),
      queuedTooLongMs: 15 * 60_000,
      limit: 50,
    });
    expect(Object.fromEntries(problems.map((p) => [p.id, p.problem]))).toEqual({
      [failed]: "failed",
      [abandoned]: "stuck-running",
      [waiting]: "stuck-queued",
    });
    expect(problems.find((p) => p.id === failed)?.lastError).toBe("Provider said no");
  });

  it("a job keeps the request id of the request that queued it", async () => {
    const id = await withLogContext({ requestId: "req-from-test-1" }, () =>
      enqueueJob(getDb(), { kind: KIND, payload: {}, now: at(0) }),
    );
    expect((await jobRow(id)).request_id).toBe("req-from-test-1");
    const outside = await enqueueJob(getDb(), { kind: KIND, payload: {}, now: at(0) });
    expect((await jobRow(outside)).request_id).toBeNull();
  });
});

describe("/api/admin/jobs", () => {
  const list = apiRoute("/api/admin/jobs");
  const retry = apiRoute("/api/admin/jobs/{jobId}/retry");
  const cancel = apiRoute("/api/admin/jobs/{jobId}/cancel");

  it("lists, retries and cancels for the super admin only; 409 for a job in the wrong state", async () => {
    const admin = await createTestAdmin();
    const creator = await createTestUser({ email: "creator@example.com" });
    const id = await failedJob();

    expect((await callRoute(list.loader, makeRequest("/api/admin/jobs"))).status).toBe(401);
    const asCreator = await callRoute(
      list.loader,
      makeRequest("/api/admin/jobs", { token: creator.token }),
    );
    expect(asCreator.status).toBe(403);
    const listed = await callRoute(
      list.loader,
      makeRequest("/api/admin/jobs", { token: admin.token }),
    );
    expect(listed.status).toBe(200);
    expect(((await listed.json()) as { id: string }[]).map((job) => job.id)).toContain(id);

    const post = (route: typeof retry, what: string, jobId: string, token: string) =>
      callRoute(
        route.action,
        makeRequest(`/api/admin/jobs/${jobId}/${what}`, { method: "POST", token }),
        { jobId },
      );
    expect((await post(retry, "retry", id, creator.token)).status).toBe(403);
    expect((await jobRow(id)).status).toBe("failed");
    const retried = await post(retry, "retry", id, admin.token);
    expect(retried.status).toBe(200);
    expect(await retried.json()).toMatchObject({ id, status: "queued" });
    expect((await post(retry, "retry", id, admin.token)).status).toBe(409);
    expect((await post(retry, "retry", "no-such-job", admin.token)).status).toBe(404);

    const cancelled = await post(cancel, "cancel", id, admin.token);
    expect(cancelled.status).toBe(200);
    expect((await jobRow(id)).last_error).toBe(CANCELLED_BY_ADMIN);
    expect((await post(cancel, "cancel", id, admin.token)).status).toBe(409);
  });
});
