import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { jobHandlers } from "~/boot/job-kinds.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import { STYLE_IDS } from "~/lib/styles";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { fixture, uploadRequest } from "#tests/setup/studio";
import { DIGITAL_SOURCE_TYPES, digitalSourceTypeIn } from "~/engines/styling/ai-disclosure.server";
import { apiRoute } from "#tests/setup/api-routes";

const upload = apiRoute("/api/token-images/upload");
const stylize = apiRoute("/api/token-images/{id}/stylize");
const optimize = apiRoute("/api/images/optimize");

/** The whole pipeline with the app's own job registry and, with no FAL_KEY, the real local engine. */
describe("a fresh install with no keys", () => {
  it("makes all four styles of the portrait with the local engine, and optimizes one", async () => {
    const { token } = await createTestUser();
    const image = await (
      await callRoute(upload.action, uploadRequest(fixture("portrait.png"), { token }))
    ).json();
    const ids: string[] = [];
    for (const style of STYLE_IDS) {
      const response = await callRoute(
        stylize.action,
        makeRequest(`/api/token-images/${image.id}/stylize`, { token, json: { style } }),
        { id: image.id },
      );
      expect(response.status).toBe(202);
      ids.push((await response.json()).id);
    }
    const worker = new JobWorker({
      db: getDb(),
      handlers: jobHandlers(),
      concurrency: 2,
      log: () => {},
    });
    await worker.drain();

    const rows = await getDb()
      .selectFrom("stylized_images")
      .selectAll()
      .where("id", "in", ids)
      .execute();
    expect(rows.map((row) => [row.style, row.status, row.provider]).sort()).toEqual(
      STYLE_IDS.map((style) => [style, "completed", "local"]).sort(),
    );
    const store = getFileStore();
    for (const row of rows) {
      const metadata = await sharp(await store.read(row.file_key!)).metadata();
      expect(metadata.width).toBe(row.width);
      // The local engine composites the photo with hand-made backgrounds: IPTC's `composite`, not trained algorithmic media.
      expect(digitalSourceTypeIn(metadata.xmp)).toBe(DIGITAL_SOURCE_TYPES.local);
    }

    const optimized = await callRoute(
      optimize.action,
      makeRequest("/api/images/optimize", {
        token,
        json: {
          imageId: ids[0],
          quality: 80,
          format: "jpg",
          resolution: "800x800",
          watermark: true,
          socialOptimized: true,
        },
      }),
    );
    expect(optimized.status).toBe(200);
    const body = await optimized.json();
    expect(Math.max(body.width, body.height)).toBeLessThanOrEqual(800);
    const file = await store.read(body.optimizedUrl.split("?")[0].replace("/media/", ""));
    expect(digitalSourceTypeIn((await sharp(file).metadata()).xmp)).toBe(
      DIGITAL_SOURCE_TYPES.local,
    );
  });
});
