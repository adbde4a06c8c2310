import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import type { StylizedImageRow } from "#db/schema";
import { describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { HttpError } from "~/infra/errors.server";
import { signInWithPassword } from "~/features/accounts/sessions/sign-in.server";
import { MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS } from "~/features/accounts/sessions/login-throttle.server";
import { startAccountExport } from "~/features/accounts/exports/account-exports.server";
import { addToWaitlist } from "~/features/accounts/registration/waitlist.server";
import { inviteWithMail } from "~/features/accounts/registration/waitlist-requests.server";
import {
  MAX_OPEN_STYLIZATIONS,
  requestStylization,
} from "~/features/studio/styles/stylized-images.server";
import { storeUploadedImage } from "~/features/studio/images/images.server";
import { admitUpload, DAY_MS } from "~/features/studio/styles/quotas.server";
import {
  PUBLISH_JOB,
  requestPublications,
} from "~/features/publishing/publications/publications.server";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage, listingContent } from "#tests/setup/market";
import { ORIGIN } from "#tests/setup/requests";
import { rowWhere } from "#tests/setup/rows-where";

/**
 * The caps and reservations of accounts and studio under many callers at once
 * on PostgreSQL, where the pool's connections run transactions side by side
 * (SQLite runs one writer at a time, so there they hold without a lock). Each
 * check-then-write takes a per-owner lock (lockForTransaction); without it,
 * these tests see the caps passed.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const describeOnPostgres = onPostgres ? describe : describe.skip;

/** The statuses of settled calls: "ok", or the HttpError's status (anything else is thrown). */
function outcomesOf(settled: PromiseSettledResult<unknown>[]): (number | "ok")[] {
  return settled.map((outcome) => {
    if (outcome.status === "fulfilled") return "ok";
    if (outcome.reason instanceof HttpError) return outcome.reason.status;
    throw outcome.reason;
  });
}

const countOf = (outcomes: (number | "ok")[], value: number | "ok") =>
  outcomes.filter((outcome) => outcome === value).length;

/** `n` uploads or styles counted half a day before `now`. */
async function usedEarlier(userId: string, kind: "upload" | "stylize", n: number, now: Date) {
  const at = new Date(now.getTime() - DAY_MS / 2).toISOString();
  await getDb()
    .insertInto("usage_events")
    .values(Array.from({ length: n }, () => ({ user_id: userId, kind, created_at: at })))
    .execute();
}

/** How many calls went through (`ok`) and how many were refused with each status: all of them. */
function expectOutcomes(outcomes: (number | "ok")[], counts: Record<number | "ok", number>) {
  for (const [value, count] of Object.entries(counts))
    expect(countOf(outcomes, value === "ok" ? "ok" : Number(value)), value).toBe(count);
}

const all = <T>(n: number, call: (index: number) => Promise<T>) =>
  Promise.allSettled(Array.from({ length: n }, (_, index) => call(index)));

/** The user's rows in `table` (their ids). */
const rowsOf = (table: "images" | "jobs" | "account_exports", userId: string) =>
  getDb().selectFrom(table).select("id").where("user_id", "=", userId).execute();

/** 30 requests at once to style the user's image as a cartoon: each one's outcome. */
async function cartoonsAtOnce(userId: string, imageId: string, now: Date, perDay: number) {
  return outcomesOf(
    await all(30, () =>
      requestStylization(getDb(), {
        userId,
        imageId,
        style: "cartoon",
        provider: "local",
        now,
        perDay,
      }),
    ),
  );
}

describeOnPostgres("invariants of accounts and studio on PostgreSQL (TEST_DATABASE_URL)", () => {
  it("checks the password of 50 concurrent wrong sign-ins for one email exactly 5 times", async () => {
    const { user } = await createTestUser();
    const now = new Date();
    const outcomes = outcomesOf(
      await all(50, () =>
        signInWithPassword(getDb(), {
          email: user.email,
          password: "not-the-password",
          clientIp: "203.0.113.50",
          now,
        }),
      ),
    );
    // A checked wrong password answers 401; a refused attempt 429 before any check.
    expect(countOf(outcomes, 401)).toBe(MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS);
    expect(countOf(outcomes, 429)).toBe(50 - MAX_ATTEMPTS_PER_EMAIL_AND_ADDRESS);
    const pending = await getDb().selectFrom("login_attempts").select("id").execute();
    expect(pending).toEqual([]);
  });

  it("leaves exactly 8 styles open when one creator asks for 30 at once", async () => {
    const { user } = await createTestUser();
    const { image_id: imageId } = await createStylizedImage(user.id);
    const now = new Date();
    const outcomes = await cartoonsAtOnce(user.id, imageId, now, getConfig().STYLIZATIONS_PER_DAY);
    expectOutcomes(outcomes, { ok: MAX_OPEN_STYLIZATIONS, 429: 30 - MAX_OPEN_STYLIZATIONS });
    const open = await getDb()
      .selectFrom("stylized_images")
      .select("id")
      .where("user_id", "=", user.id)
      .where("status", "in", ["pending", "processing"])
      .execute();
    expect(open).toHaveLength(MAX_OPEN_STYLIZATIONS);
    const jobs = await rowsOf("jobs", user.id);
    expect(jobs).toHaveLength(MAX_OPEN_STYLIZATIONS);
  });

  it("lets exactly the styles left today through when 30 arrive at once", async () => {
    const perDay = getConfig().STYLIZATIONS_PER_DAY;
    const { user } = await createTestUser();
    const { image_id: imageId } = await createStylizedImage(user.id);
    const now = new Date();
    // 3 left today, fewer than the open-styles cap.
    await usedEarlier(user.id, "stylize", perDay - 3, now);
    const outcomes = await cartoonsAtOnce(user.id, imageId, now, perDay);
    expectOutcomes(outcomes, { ok: 3, 429: 27 });
    const today = await getDb()
      .selectFrom("usage_events")
      .select("id")
      .where("user_id", "=", user.id)
      .where("kind", "=", "stylize")
      .execute();
    expect(today).toHaveLength(perDay);
  });

  /** `n` small PNG files in the store's scratch area, ready to upload. */
  async function sourceFiles(n: number): Promise<string[]> {
    const png = await sharp({
      create: { width: 16, height: 16, channels: 3, background: { r: 200, g: 120, b: 40 } },
    })
      .png()
      .toBuffer();
    const store = getFileStore();
    return Promise.all(
      Array.from({ length: n }, async () => {
        const file = await store.scratchPath();
        await fs.promises.mkdir(path.dirname(file), { recursive: true });
        await fs.promises.writeFile(file, png);
        return file;
      }),
    );
  }

  const upload = (userId: string, sourcePath: string, now: Date) =>
    storeUploadedImage(getDb(), getFileStore(), {
      userId,
      sourcePath,
      now,
      admit: (trx, image) =>
        admitUpload(trx, { userId, config: getConfig(), bytes: image.bytes, now }),
    });

  it("lets exactly the uploads left today through when 30 arrive at once", async () => {
    const perDay = getConfig().UPLOADS_PER_DAY;
    const { user } = await createTestUser();
    const now = new Date();
    await usedEarlier(user.id, "upload", perDay - 5, now);
    const files = await sourceFiles(30);
    const outcomes = outcomesOf(await all(30, (index) => upload(user.id, files[index], now)));
    expectOutcomes(outcomes, { ok: 5, 429: 25 });
    const images = await rowsOf("images", user.id);
    expect(images).toHaveLength(5);
  });

  it("keeps a creator inside their storage when 30 uploads arrive at once", async () => {
    const { user } = await createTestUser();
    const now = new Date();
    const [first, ...files] = await sourceFiles(31);
    const { bytes } = await upload(user.id, first, now);
    // Room for two and a half more of these images.
    const limit = getConfig().STORAGE_PER_CREATOR_MB * 1024 * 1024;
    await getDb()
      .insertInto("images")
      .values({
        id: `filler-${user.id}`,
        user_id: user.id,
        file_key: `originals/filler-${user.id}.png`,
        width: 1,
        height: 1,
        bytes: limit - bytes - Math.floor(2.5 * bytes),
        mime_type: "image/png",
        created_at: now.toISOString(),
      })
      .execute();
    const outcomes = outcomesOf(await all(30, (index) => upload(user.id, files[index], now)));
    expectOutcomes(outcomes, { ok: 2, 507: 28 });
    const stored = await getDb()
      .selectFrom("images")
      .select((eb) => eb.fn.sum<number>("bytes").as("total"))
      .where("user_id", "=", user.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.total)).toBeLessThanOrEqual(limit);
  });

  it("queues exactly PUBLISH_JOBS_PER_CREATOR publishing jobs when 30 requests arrive at once", async () => {
    const cap = getConfig().PUBLISH_JOBS_PER_CREATOR;
    const { user } = await createTestUser();
    const images: StylizedImageRow[] = [];
    for (let n = 0; n < 30; n++) images.push(await createStylizedImage(user.id));
    const now = new Date();
    const outcomes = outcomesOf(
      await all(30, (index) =>
        requestPublications(getDb(), {
          userId: user.id,
          image: images[index],
          requests: [{ platform: "marketplace", blocked: null }],
          content: listingContent(),
          origin: ORIGIN,
          now,
          maxQueuedJobs: cap,
        }),
      ),
    );
    expectOutcomes(outcomes, { ok: cap, 429: 30 - cap });
    const jobs = await getDb()
      .selectFrom("jobs")
      .select("id")
      .where("user_id", "=", user.id)
      .where("kind", "=", PUBLISH_JOB)
      .execute();
    expect(jobs).toHaveLength(cap);
  });

  it("answers 20 concurrent export requests of one user with one pending export", async () => {
    const { user } = await createTestUser();
    const settled = await all(20, () => startAccountExport(getDb(), user.id, new Date()));
    const outcomes = outcomesOf(settled);
    expect(countOf(outcomes, "ok")).toBe(20);
    const ids = new Set(
      settled.map((outcome) => (outcome.status === "fulfilled" ? outcome.value.id : null)),
    );
    expect(ids.size).toBe(1);
    const rows = await rowsOf("account_exports", user.id);
    expect(rows).toHaveLength(1);
  });

  it("invites exactly BETA_SPOTS of 12 waitlist entries invited at once", async () => {
    const spots = 3;
    const { user: admin } = await createTestUser();
    const now = new Date();
    const entryIds: string[] = [];
    for (let n = 0; n < 12; n++) {
      const email = `beta-${n}-${admin.id}@example.com`;
      await addToWaitlist(getDb(), email, now);
      const entry = await rowWhere("waitlist", "id", "email", email);
      entryIds.push(entry.id);
    }
    const config = { ...getConfig(), BETA_SPOTS: spots };
    const outcomes = outcomesOf(
      await all(12, (index) =>
        inviteWithMail(getDb(), config, { entryId: entryIds[index], adminId: admin.id, now }),
      ),
    );
    expectOutcomes(outcomes, { ok: spots, 409: 12 - spots });
    const invited = await getDb()
      .selectFrom("waitlist")
      .select("id")
      .where("id", "in", entryIds)
      .where("invited_at", "is not", null)
      .execute();
    expect(invited).toHaveLength(spots);
  });
});
