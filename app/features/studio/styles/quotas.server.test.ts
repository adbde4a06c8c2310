import { describe, expect, it } from "vitest";
import { flashOf } from "#tests/setup/flash";
import * as dashboard from "~/routes/_studio+/dashboard";
import { getDb } from "~/infra/db.server";
import {
  DAY_MS,
  dailyWaitSeconds,
  recordUsage,
  storageUsedBytes,
  waitPhrase,
} from "~/features/studio/styles/quotas.server";
import { callRoute, makeRequest, ORIGIN } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { fixture, uploadRequest } from "#tests/setup/studio";
import { expectUnchanged, fingerprint } from "#tests/reliability/db-fingerprint";
import { apiRoute } from "#tests/setup/api-routes";
import { uploadPortrait, useConfig } from "#tests/setup/studio-api";
import { selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const upload = apiRoute("/api/token-images/upload");
const imageRoute = apiRoute("/api/token-images/{id}");

const uploadImage = uploadPortrait;

/**
 * An upload whose body sends the start of a file and then nothing more, ever:
 * only an answer given before reading the body can come back.
 */
function stalledUpload(token: string): Request {
  const boundary = "quota-test-boundary";
  const head = new TextEncoder().encode(
    `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="selfie.png"\r\nContent-Type: image/png\r\n\r\n`,
  );
  let sent = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!sent) {
        sent = true;
        controller.enqueue(head);
        return;
      }
      return new Promise<void>(() => {});
    },
  });
  return new Request(new URL("/api/token-images/upload", ORIGIN), {
    method: "POST",
    headers: {
      Authorization: `Bearer ${token}`,
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
    },
    body,
    duplex: "half",
  } as RequestInit);
}

describe("uploads per day", () => {
  it("answers 429 with Retry-After and a JSON message past UPLOADS_PER_DAY, before reading the body", async () => {
    useConfig({ UPLOADS_PER_DAY: 2 });
    const { token } = await createTestUser();
    expect((await uploadImage(token)).status).toBe(201);
    expect((await uploadImage(token)).status).toBe(201);

    const before = await fingerprint();
    const refused = await callRoute(upload.action, stalledUpload(token));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThan(DAY_MS / 1000 - 120);
    expect(retryAfter).toBeLessThanOrEqual(DAY_MS / 1000);
    expect(await refused.json()).toEqual({
      message: "You have reached your limit of 2 uploads a day. Please try again in 24 hours.",
    });
    expectUnchanged(before, await fingerprint(), "a refused upload");
  });

  it("does not give an upload back when its image is deleted", async () => {
    useConfig({ UPLOADS_PER_DAY: 1 });
    const { token } = await createTestUser();
    const first = await uploadImage(token);
    const { id } = await first.json();
    const deleted = await callRoute(
      imageRoute.action,
      makeRequest(`/api/token-images/${id}`, { method: "DELETE", token }),
      { id },
    );
    expect(deleted.status).toBeLessThan(300);
    expect((await uploadImage(token)).status).toBe(429);
  });

  it("lets no more than UPLOADS_PER_DAY through when uploads arrive at once", async () => {
    useConfig({ UPLOADS_PER_DAY: 2 });
    const { user, token } = await createTestUser();
    const responses = await Promise.all(Array.from({ length: 5 }, () => uploadImage(token)));
    expect(responses.map((response) => response.status).sort()).toEqual([201, 201, 429, 429, 429]);
    const images = await selectWhere("images", "id", "user_id", user.id);
    expect(images).toHaveLength(2);
  });

  it("shows the dashboard's upload form the reason", async () => {
    useConfig({ UPLOADS_PER_DAY: 1 });
    const { cookie } = await createTestUser();
    const send = () =>
      callRoute(
        dashboard.action,
        uploadRequest(fixture("portrait.png"), { cookie, url: "/dashboard" }),
      );
    expect((await send()).status).toBe(302);
    const refused = await send();
    expect(refused.headers.get("Location")).toBe("/dashboard?step=upload#pipeline");
    const flash = await flashOf(refused);
    expect(flash).toEqual({
      kind: "error",
      title: "Upload Failed",
      description: "You have reached your limit of 1 upload a day. Please try again in 24 hours.",
    });
  });
});

describe("storage per creator", () => {
  it("counts originals, styled and optimized files", async () => {
    const { user, token } = await createTestUser();
    const image = await (await uploadImage(token)).json();
    const now = new Date().toISOString();
    await getDb()
      .insertInto("stylized_images")
      .values({
        id: `styled-${user.id}`,
        image_id: image.id,
        user_id: user.id,
        style: "anime",
        status: "completed",
        provider: "local",
        file_key: null,
        width: null,
        height: null,
        bytes: 1000,
        error: null,
        price_cents: null,
        optimized_file_key: null,
        optimized_format: null,
        optimized_quality: null,
        optimized_resolution: null,
        optimized_width: null,
        optimized_height: null,
        optimized_bytes: 300,
        watermark: null,
        social_optimized: null,
        created_at: now,
        updated_at: now,
        completed_at: now,
      })
      .execute();
    expect(await storageUsedBytes(getDb(), user.id)).toBe(image.bytes + 1300);
    expect(await storageUsedBytes(getDb(), (await createTestUser()).user.id)).toBe(0);
  });

  it("refuses with 507 before reading the body once the creator's storage is used up", async () => {
    useConfig({ STORAGE_PER_CREATOR_MB: 1 });
    const { user, token } = await createTestUser();
    const image = await (await uploadImage(token)).json();
    await updateWhere("images", { bytes: 1024 * 1024 }, "id", image.id);

    const before = await fingerprint();
    const refused = await callRoute(upload.action, stalledUpload(token));
    expect(refused.status).toBe(507);
    expect(await refused.json()).toEqual({
      message: "You have used all 1 MB of your storage. Delete some images to make room.",
    });
    expectUnchanged(before, await fingerprint(), "a refused upload");
    expect(await storageUsedBytes(getDb(), user.id)).toBe(1024 * 1024);
  });

  it("refuses with 507 an upload that would go past the creator's storage, keeping nothing", async () => {
    useConfig({ STORAGE_PER_CREATOR_MB: 1 });
    const { token } = await createTestUser();
    const image = await (await uploadImage(token)).json();
    await updateWhere("images", { bytes: 1024 * 1024 - 10 }, "id", image.id);

    const before = await fingerprint();
    const refused = await uploadImage(token);
    expect(refused.status).toBe(507);
    expect((await refused.json()).message).toBe(
      "This image would take you past your 1 MB of storage. Delete some images to make room.",
    );
    expectUnchanged(before, await fingerprint(), "a refused upload");
  });
});

describe("the daily window", () => {
  it("waits until enough of the oldest events have left the last 24 hours", async () => {
    const { user } = await createTestUser();
    const now = new Date("2026-11-24T12:00:00.000Z");
    const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * 60 * 60 * 1000);
    for (const hoursAgo of [30, 20, 10, 5])
      await recordUsage(getDb(), { userId: user.id, kind: "upload", now: at(hoursAgo) });
    const args = { userId: user.id, kind: "upload" as const, now };
    // 30 hours ago has left the window (and was forgotten); 3 remain: 20, 10 and 5 hours ago.
    expect(await dailyWaitSeconds(getDb(), { ...args, limit: 4 })).toBe(0);
    expect(await dailyWaitSeconds(getDb(), { ...args, limit: 3 })).toBe(4 * 60 * 60);
    expect(await dailyWaitSeconds(getDb(), { ...args, limit: 2 })).toBe(14 * 60 * 60);
    expect(await dailyWaitSeconds(getDb(), { ...args, kind: "stylize", limit: 1 })).toBe(0);
    const kept = await selectWhere("usage_events", "created_at", "user_id", user.id);
    expect(kept).toHaveLength(3);
  });

  it("says how long to wait in words", () => {
    expect(waitPhrase(30)).toBe("a minute");
    expect(waitPhrase(20 * 60)).toBe("20 minutes");
    expect(waitPhrase(5 * 60 * 60 + 100)).toBe("5 hours");
  });
});
