import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { requestStylization } from "~/features/studio/styles/stylized-images.server";
import { originalRemovalDate } from "~/features/studio/images/original-retention.server";
import { sweepExpiredOriginals } from "~/features/studio/public.server";
import { DAY_MS } from "~/features/studio/styles/quotas.server";
import { createTestUser } from "#tests/setup/accounts";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createStylizedImage } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { rowWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const imagesRoute = apiRoute("/api/token-images");
const imageRoute = apiRoute("/api/token-images/{id}");

/** ORIGINALS_RETENTION_DAYS: expired originals lose their file; their styles, and originals still needed, stay. */

async function uploadedAt(imageId: string, daysAgo: number, now: Date) {
  await getDb()
    .updateTable("images")
    .set({ created_at: new Date(now.getTime() - daysAgo * DAY_MS).toISOString() })
    .where("id", "=", imageId)
    .execute();
}

async function imageOf(imageId: string) {
  return rowWhere("images", "*", "id", imageId);
}

describe("the originals' retention", () => {
  it("removes only expired originals no unfinished style needs; their styles and rows stay", async () => {
    const { user, token } = await createTestUser();
    const store = getFileStore();
    const now = new Date();
    const expired = await createStylizedImage(user.id);
    const busy = await createStylizedImage(user.id, { status: "pending" });
    const recent = await createStylizedImage(user.id);
    await uploadedAt(expired.image_id, 31, now);
    await uploadedAt(busy.image_id, 31, now);
    await uploadedAt(recent.image_id, 29, now);

    const removed = await sweepExpiredOriginals(getDb(), getFileStore(), {
      retentionDays: 30,
      now,
    });
    expect(removed).toContain(expired.image_id);
    expect(removed).not.toContain(busy.image_id);
    expect(removed).not.toContain(recent.image_id);

    const gone = await imageOf(expired.image_id);
    expect(gone.original_removed_at).toBe(now.toISOString());
    expect(await store.exists(gone.file_key)).toBe(false);
    // The style made from it stays, with its file.
    const style = await rowWhere("stylized_images", "*", "id", expired.id);
    expect(style.status).toBe("completed");
    expect(await store.exists(style.file_key!)).toBe(true);

    for (const kept of [busy.image_id, recent.image_id]) {
      const row = await imageOf(kept);
      expect(row.original_removed_at).toBeNull();
      expect(await store.exists(row.file_key)).toBe(true);
    }

    // The API no longer offers the removed original (its address would answer 404), as the dashboard does not.
    const listed = (await (
      await callRoute(imagesRoute.loader, makeRequest("/api/token-images", { token }))
    ).json()) as { id: string }[];
    expect(listed.map((image) => image.id).sort()).toEqual([busy.image_id, recent.image_id].sort());
    const one = await callRoute(
      imageRoute.loader,
      makeRequest(`/api/token-images/${expired.image_id}`, { token }),
      { id: expired.image_id },
    );
    expect(one.status).toBe(404);

    // A removed original cannot be styled any more (404 at the API), and a second sweep changes nothing.
    expect(
      await requestStylization(getDb(), {
        userId: user.id,
        imageId: expired.image_id,
        style: "anime",
        provider: "local",
        now,
      }),
    ).toBeUndefined();
    expect(
      await sweepExpiredOriginals(getDb(), getFileStore(), { retentionDays: 30, now }),
    ).not.toContain(expired.image_id);
  });

  it("takes an original once the style that needed it is done", async () => {
    const { user } = await createTestUser();
    const now = new Date();
    const busy = await createStylizedImage(user.id, { status: "processing" });
    await uploadedAt(busy.image_id, 10, now);
    // (The sweep is for every creator: other tests' originals may go too.)
    expect(
      await sweepExpiredOriginals(getDb(), getFileStore(), { retentionDays: 7, now }),
    ).not.toContain(busy.image_id);
    await updateWhere("stylized_images", { status: "failed" }, "id", busy.id);
    expect(
      await sweepExpiredOriginals(getDb(), getFileStore(), { retentionDays: 7, now }),
    ).toContain(busy.image_id);
  });

  it("keeps everything when ORIGINALS_RETENTION_DAYS is unset", async () => {
    const { user } = await createTestUser();
    const now = new Date();
    const old = await createStylizedImage(user.id);
    await uploadedAt(old.image_id, 3650, now);
    expect(
      await sweepExpiredOriginals(getDb(), getFileStore(), { retentionDays: undefined, now }),
    ).toEqual([]);
    expect((await imageOf(old.image_id)).original_removed_at).toBeNull();
    expect(originalRemovalDate(now.toISOString(), undefined)).toBeNull();
    expect(originalRemovalDate("2026-01-01T00:00:00.000Z", 30)).toBe("2026-01-31T00:00:00.000Z");
  });
});
