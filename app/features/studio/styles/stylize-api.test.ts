import sharp from "sharp";
import { beforeEach, describe, expect, it } from "vitest";
import * as media from "~/routes/_resources+/media.$";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { StyleEngineError } from "~/engines/styling/style-engine-error.server";
import { MAX_OPEN_STYLIZATIONS } from "~/features/studio/styles/stylized-images.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { studioWorker, testStyleEngine } from "#tests/setup/studio";
import { apiRoute } from "#tests/setup/api-routes";
import { stylizeRequest, uploadedImage } from "#tests/setup/studio-api";
import { contentCredentialsFor } from "~/engines/provenance/content-credentials.server";
import { getConfig } from "~/infra/config.server";
import { rowWhere, rowsWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const images = apiRoute("/api/token-images");
const stylize = apiRoute("/api/token-images/{id}/stylize");
const stylizedList = apiRoute("/api/token-stylized-images");
const stylized = apiRoute("/api/token-stylized-images/{id}");

// Each test drains the queue with its own engine: start from an empty queue.
beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

const requestStyle = stylizeRequest;

const poll = (id: string, token: string) =>
  callRoute(stylized.loader, makeRequest(`/api/token-stylized-images/${id}`, { token }), { id });

describe("POST /api/token-images/{id}/stylize", () => {
  it("answers 202 {id, status} at once and leaves the work to a durable job", async () => {
    const { token } = await createTestUser();
    const image = await uploadedImage(token);
    const response = await requestStyle(image.id, { style: "cartoon" }, { token });
    expect(response.status).toBe(202);
    const body = await response.json();
    expect(body).toEqual({ id: expect.any(String), status: "pending" });

    const job = await getDb()
      .selectFrom("jobs")
      .selectAll()
      .where("payload", "like", `%${body.id}%`)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ kind: "stylize-image", status: "queued", attempts: 0 });
    const pending = await (await poll(body.id, token)).json();
    expect(pending).toMatchObject({
      id: body.id,
      imageId: image.id,
      style: "cartoon",
      status: "pending",
      styledUrl: null,
    });
  });

  it("goes pending -> processing -> completed, recording the engine that made it", async () => {
    const { token } = await createTestUser();
    const image = await uploadedImage(token);
    const { id } = await (await requestStyle(image.id, { style: "anime" }, { token })).json();

    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const engine = testStyleEngine({ id: "fal", gate });
    const worker = studioWorker(engine);
    await worker.tick();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await (await poll(id, token)).json()).status).toBe("processing");
    release();
    await worker.drain();

    const response = await poll(id, token);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body).toEqual({
      id,
      imageId: image.id,
      style: "anime",
      status: "completed",
      styledUrl: expect.stringMatching(/^\/media\/styled\/[A-Za-z0-9_-]+\.jpg\?exp=\d+&sig=/),
      stylizedUrl: body.styledUrl,
      originalUrl: expect.stringMatching(/^\/media\/originals\//),
      optimizedUrl: null,
      format: null,
      quality: null,
      resolution: null,
      watermark: null,
      socialOptimized: null,
      width: 256,
      height: 256,
      bytes: expect.any(Number),
      upscaledBy: null, // the engine's result was not enlarged
      price: "50", // no listing and no price of its own: the anime style's suggested price, as on the dashboard
      licensingEnabled: true,
      nftEnabled: false,
      createdAt: expect.any(String),
      completedAt: expect.any(String),
      error: null,
      provider: "fal",
      seed: expect.any(Number),
    });
    expect(engine.calls).toEqual([{ style: "anime", bytes: expect.any(Number), seed: body.seed }]);
    const key = body.styledUrl.split("?")[0].replace("/media/", "");
    const file = await callRoute(media.loader, makeRequest(body.styledUrl), { "*": key });
    expect(file.status).toBe(200);
    expect((await sharp(Buffer.from(await file.arrayBuffer())).metadata()).width).toBe(256);
  });

  it("records how the engine enlarged its result, and answers it as upscaledBy", async () => {
    const { token } = await createTestUser();
    const image = await uploadedImage(token);
    const { id } = await (await requestStyle(image.id, { style: "cartoon" }, { token })).json();
    const base = testStyleEngine({ id: "fal" });
    await studioWorker({
      id: "fal",
      stylize: async (input, style, options) => ({
        ...(await base.stylize(input, style, options)),
        upscaledBy: "fal-ai/esrgan",
      }),
    }).drain();
    const row = await rowWhere("stylized_images", "*", "id", id);
    expect([row.status, row.provider, row.upscaled_by]).toEqual([
      "completed",
      "fal",
      "fal-ai/esrgan",
    ]);
    expect((await (await poll(id, token)).json()).upscaledBy).toBe("fal-ai/esrgan");
  });

  it("ends failed with the engine's sentence when the model refuses, without retrying", async () => {
    const { token } = await createTestUser();
    const image = await uploadedImage(token);
    const { id } = await (await requestStyle(image.id, { style: "fantasy" }, { token })).json();
    const engine = testStyleEngine({
      fail: () =>
        new StyleEngineError(
          "The AI service flagged this photo as unsafe, so no style was made.",
          false,
        ),
    });
    await studioWorker(engine).drain();
    const body = await (await poll(id, token)).json();
    expect(body.status).toBe("failed");
    expect(body.error).toBe("The AI service flagged this photo as unsafe, so no style was made.");
    expect(body.styledUrl).toBeNull();
    expect(engine.calls).toHaveLength(1);
  });

  it("retries a passing failure (pending again, with backoff) and then completes", async () => {
    const { token } = await createTestUser();
    const image = await uploadedImage(token);
    const { id } = await (
      await requestStyle(image.id, { style: "professional" }, { token })
    ).json();
    const engine = testStyleEngine({
      fail: (call) =>
        call === 1
          ? new StyleEngineError("The AI service is busy. Trying again shortly.", true)
          : null,
    });
    const worker = studioWorker(engine);
    await worker.drain();
    expect((await (await poll(id, token)).json()).status).toBe("pending");
    const job = await getDb()
      .selectFrom("jobs")
      .selectAll()
      .where("payload", "like", `%${id}%`)
      .executeTakeFirstOrThrow();
    expect(job.status).toBe("queued");
    expect(job.run_at > job.updated_at).toBe(true); // due later, not at once
    // Make it due now rather than waiting for the backoff.
    await getDb()
      .updateTable("jobs")
      .set({ run_at: new Date(0).toISOString() })
      .where("id", "=", job.id)
      .execute();
    await worker.drain();
    const body = await (await poll(id, token)).json();
    expect(body.status).toBe("completed");
    expect(engine.calls).toHaveLength(2);
  });

  it("answers 400 for an unknown or missing style and for a malformed body", async () => {
    const { token } = await createTestUser();
    const image = await uploadedImage(token);
    for (const json of [{ style: "watercolor" }, {}, { style: 5 }, "{nope", "[]"]) {
      const response = await requestStyle(image.id, json, { token });
      expect(response.status, JSON.stringify(json)).toBe(400);
      expect(typeof (await response.json()).message).toBe("string");
    }
    const body = await (await requestStyle(image.id, { style: "watercolor" }, { token })).json();
    expect(body.fieldErrors.style).toEqual([
      "Choose one of the styles: professional, cartoon, anime, fantasy",
    ]);
  });

  it("answers 404 for another user's image (creating nothing), 401 signed out, 403 cross-site cookie", async () => {
    const { token } = await createTestUser();
    const other = await createTestUser();
    const theirs = await uploadedImage(other.token);
    const response = await requestStyle(theirs.id, { style: "cartoon" }, { token });
    expect(response.status).toBe(404);
    expect(await rowsWhere("stylized_images", "image_id", theirs.id)).toEqual([]);
    expect((await requestStyle(theirs.id, { style: "cartoon" }, {})).status).toBe(401);
    const cross = await callRoute(
      stylize.action,
      makeRequest(`/api/token-images/${theirs.id}/stylize`, {
        cookie: other.cookie,
        json: { style: "anime" },
        origin: "cross",
      }),
      { id: theirs.id },
    );
    expect(cross.status).toBe(403);
  });

  it(`answers 429 past ${MAX_OPEN_STYLIZATIONS} styles in progress`, async () => {
    const { token } = await createTestUser();
    const image = await uploadedImage(token);
    for (let i = 0; i < MAX_OPEN_STYLIZATIONS; i++) {
      expect((await requestStyle(image.id, { style: "cartoon" }, { token })).status).toBe(202);
    }
    const response = await requestStyle(image.id, { style: "cartoon" }, { token });
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("10");
  });
});

describe("GET and DELETE /api/token-stylized-images", () => {
  it("lists the caller's stylized images newest first; GET and DELETE of another user's are 404", async () => {
    const { token } = await createTestUser();
    const other = await createTestUser();
    const image = await uploadedImage(token);
    const first = await (await requestStyle(image.id, { style: "cartoon" }, { token })).json();
    await updateWhere(
      "stylized_images",
      { created_at: "2020-01-01T00:00:00.000Z" },
      "id",
      first.id,
    );
    const second = await (await requestStyle(image.id, { style: "anime" }, { token })).json();
    const theirImage = await uploadedImage(other.token);
    const theirs = await (
      await requestStyle(theirImage.id, { style: "anime" }, { token: other.token })
    ).json();

    const list = await (
      await callRoute(stylizedList.loader, makeRequest("/api/token-stylized-images", { token }))
    ).json();
    expect(list.map((item: { id: string }) => item.id)).toEqual([second.id, first.id]);
    const nested = await (
      await callRoute(images.loader, makeRequest("/api/token-images", { token }))
    ).json();
    expect(nested[0].stylized.map((item: { id: string }) => item.id)).toEqual([
      second.id,
      first.id,
    ]);

    expect((await poll(theirs.id, token)).status).toBe(404);
    const foreignDelete = await callRoute(
      stylized.action,
      makeRequest(`/api/token-stylized-images/${theirs.id}`, { method: "DELETE", token }),
      { id: theirs.id },
    );
    expect(foreignDelete.status).toBe(404);
    expect((await poll(theirs.id, other.token)).status).toBe(200);
  });

  it("deletes a stylized image with its file; the job then finds nothing to do", async () => {
    const { token } = await createTestUser();
    const image = await uploadedImage(token);
    const { id } = await (await requestStyle(image.id, { style: "cartoon" }, { token })).json();
    await studioWorker(testStyleEngine()).drain();
    const row = await rowWhere("stylized_images", "*", "id", id);
    expect(await getFileStore().exists(row.file_key!)).toBe(true);

    const response = await callRoute(
      stylized.action,
      makeRequest(`/api/token-stylized-images/${id}`, { method: "DELETE", token }),
      { id },
    );
    expect(response.status).toBe(204);
    expect(await getFileStore().exists(row.file_key!)).toBe(false);
    expect((await poll(id, token)).status).toBe(404);

    // A style requested and deleted before the worker ran: the job ends quietly.
    const second = await (await requestStyle(image.id, { style: "anime" }, { token })).json();
    await callRoute(
      stylized.action,
      makeRequest(`/api/token-stylized-images/${second.id}`, { method: "DELETE", token }),
      {
        id: second.id,
      },
    );
    const engine = testStyleEngine();
    await studioWorker(engine).drain();
    expect(engine.calls).toEqual([]);
    const job = await getDb()
      .selectFrom("jobs")
      .selectAll()
      .where("payload", "like", `%${second.id}%`)
      .executeTakeFirstOrThrow();
    expect(job.status).toBe("done");
  });
});

describe("the price GET /api/token-stylized-images answers", () => {
  it("is the live listing's price when there is one, else the image's own price, as the dashboard shows", async () => {
    const { listStylizedImage } = await import("~/features/market/catalog/listings.server");
    const { listingInputSchema } = await import("~/features/market/catalog/listing-schema");
    const { user, token } = await createTestUser();
    const image = await uploadedImage(token);
    const listed = await (
      await requestStyle(image.id, { style: "professional" }, { token })
    ).json();
    const priced = await (await requestStyle(image.id, { style: "cartoon" }, { token })).json();
    await studioWorker(testStyleEngine()).drain();
    await listStylizedImage(getDb(), getFileStore(), {
      credentials: contentCredentialsFor(getConfig()),
      userId: user.id,
      input: listingInputSchema.parse({
        stylizedImageId: listed.id,
        title: "My selfie",
        price: 12.5,
      }),
      now: new Date(),
    });
    await updateWhere("stylized_images", { price_cents: 999 }, "id", priced.id);

    expect((await (await poll(listed.id, token)).json()).price).toBe("12.50");
    expect((await (await poll(priced.id, token)).json()).price).toBe("9.99");
    const all = (await (
      await callRoute(stylizedList.loader, makeRequest("/api/token-stylized-images", { token }))
    ).json()) as {
      id: string;
      price: string;
    }[];
    expect(Object.fromEntries(all.map((item) => [item.id, item.price]))).toEqual({
      [listed.id]: "12.50",
      [priced.id]: "9.99",
    });
  });
});

describe("deleting withdraws marketplace listings", () => {
  it("withdraws the listing of a deleted stylized image, and of every version of a deleted upload", async () => {
    const { listStylizedImage } = await import("~/features/market/catalog/listings.server");
    const { listingInputSchema } = await import("~/features/market/catalog/listing-schema");
    const imagesRoute = (await import("#tests/setup/api-routes")).apiRoute(
      "/api/token-images/{id}",
    );
    const { user, token } = await createTestUser();
    const image = await uploadedImage(token);
    const first = await (await requestStyle(image.id, { style: "cartoon" }, { token })).json();
    const second = await (await requestStyle(image.id, { style: "anime" }, { token })).json();
    await studioWorker(testStyleEngine()).drain();
    const list = async (stylizedImageId: string) =>
      (
        await listStylizedImage(getDb(), getFileStore(), {
          credentials: contentCredentialsFor(getConfig()),
          userId: user.id,
          input: listingInputSchema.parse({ stylizedImageId, title: "My selfie", price: 30 }),
          now: new Date(),
        })
      ).listing.id;
    const listingOf = (id: string) =>
      rowWhere("listings", ["status", "stylized_image_id"], "id", id);
    const firstListing = await list(first.id);
    const secondListing = await list(second.id);
    expect((await listingOf(firstListing)).status).toBe("active");

    await callRoute(
      stylized.action,
      makeRequest(`/api/token-stylized-images/${first.id}`, { method: "DELETE", token }),
      {
        id: first.id,
      },
    );
    expect(await listingOf(firstListing)).toEqual({ status: "withdrawn", stylized_image_id: null });
    expect((await listingOf(secondListing)).status).toBe("active");

    await callRoute(
      imagesRoute.action,
      makeRequest(`/api/token-images/${image.id}`, { method: "DELETE", token }),
      {
        id: image.id,
      },
    );
    expect(await listingOf(secondListing)).toEqual({
      status: "withdrawn",
      stylized_image_id: null,
    });
  });
});
