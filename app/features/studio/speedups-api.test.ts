import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { MAX_OPEN_STYLIZATIONS } from "~/features/studio/styles/stylized-images.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { fixture, studioWorker, testStyleEngine } from "#tests/setup/studio";
import { expectUnchanged, fingerprint } from "#tests/reliability/db-fingerprint";
import { apiRoute } from "#tests/setup/api-routes";
import { useConfig, uploadedImage } from "#tests/setup/studio-api";
import { selectWhere } from "#tests/setup/rows-where";

/**
 * The creators' speed-ups through the API: several selfies in one upload,
 * all four styles in one request, and a re-roll with a new seed, each under
 * the same caps as one at a time.
 */

const upload = apiRoute("/api/token-images/upload");
const stylize = apiRoute("/api/token-images/{id}/stylize");
const stylizeAll = apiRoute("/api/token-images/{id}/stylize-all");
const reroll = apiRoute("/api/token-stylized-images/{id}/reroll");
const stylizedList = apiRoute("/api/token-stylized-images");

beforeEach(async () => {
  await getDb().deleteFrom("jobs").execute();
});

/** One multipart body with each file in the `image` field, in order. */
function multiUpload(files: { data: Uint8Array; name: string }[], token: string): Request {
  const form = new FormData();
  for (const file of files)
    form.append("image", new Blob([new Uint8Array(file.data)], { type: "image/png" }), file.name);
  return makeRequest("/api/token-images/upload", { method: "POST", body: form, token });
}

const selfies = (count: number) =>
  Array.from({ length: count }, (_, i) => ({ data: fixture("portrait.png"), name: `s${i}.png` }));

async function imageCount(userId: string): Promise<number> {
  const rows = await selectWhere("images", "id", "user_id", userId);
  return rows.length;
}

describe("several selfies in one upload", () => {
  it("stores 10 files, answering {images, refused} in the order sent", async () => {
    const { token, user } = await createTestUser();
    const response = await callRoute(upload.action, multiUpload(selfies(10), token));
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.refused).toEqual([]);
    expect(body.images).toHaveLength(10);
    expect(body.images[0]).toMatchObject({ id: expect.any(String), width: 512, height: 512 });
    expect(await imageCount(user.id)).toBe(10);
  });

  it("refuses an 11th file with 400 and stores none", async () => {
    const { token, user } = await createTestUser();
    const before = await fingerprint();
    const response = await callRoute(upload.action, multiUpload(selfies(11), token));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: "Please select at most 10 images at once." });
    expect(await imageCount(user.id)).toBe(0);
    expectUnchanged(before, await fingerprint(), "an 11-file upload");
  });

  it("keeps the good files when one among them is not an image, and names the bad one", async () => {
    const { token, user } = await createTestUser();
    const files = selfies(3);
    files[1] = { data: Buffer.from("not a picture at all"), name: "notes.png" };
    const response = await callRoute(upload.action, multiUpload(files, token));
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.images).toHaveLength(2);
    expect(body.refused).toEqual([
      {
        index: 1,
        filename: "notes.png",
        status: 415,
        message: "Please select a valid image file (JPG or PNG).",
      },
    ]);
    expect(await imageCount(user.id)).toBe(2);
  });

  it("answers one file exactly as before: the image itself", async () => {
    const { token } = await createTestUser();
    const response = await callRoute(upload.action, multiUpload(selfies(1), token));
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(Object.keys(body).sort()).toEqual(
      expect.arrayContaining(["id", "originalUrl", "width", "height", "bytes", "mimeType"]),
    );
    expect(body).not.toHaveProperty("images");
  });

  it("stores files up to today's upload cap and refuses the rest with its 429 message", async () => {
    useConfig({ UPLOADS_PER_DAY: 3 });
    const { token, user } = await createTestUser();
    const response = await callRoute(upload.action, multiUpload(selfies(5), token));
    expect(response.status).toBe(201);
    const body = await response.json();
    expect(body.images).toHaveLength(3);
    expect(
      body.refused.map((file: { index: number; status: number }) => [file.index, file.status]),
    ).toEqual([
      [3, 429],
      [4, 429],
    ]);
    expect(body.refused[0].message).toMatch(/limit of 3 uploads a day/);
    expect(await imageCount(user.id)).toBe(3);
    // All refused: the first refusal is the answer, as for one file.
    const again = await callRoute(upload.action, multiUpload(selfies(2), token));
    expect(again.status).toBe(429);
    expect(await imageCount(user.id)).toBe(3);
  });
});

describe("all four styles", () => {
  const askAll = (id: string, token: string) =>
    callRoute(
      stylizeAll.action,
      makeRequest(`/api/token-images/${id}/stylize-all`, { method: "POST", token }),
      {
        id,
      },
    );

  it("asks for one style of each kind, each with its own seed and job", async () => {
    const { token } = await createTestUser();
    const image = await uploadedImage(token);
    const response = await askAll(image.id, token);
    expect(response.status).toBe(202);
    const styles = (await response.json()) as {
      id: string;
      style: string;
      status: string;
      seed: number;
    }[];
    expect(styles.map((style) => style.style)).toEqual([
      "professional",
      "cartoon",
      "anime",
      "fantasy",
    ]);
    expect(styles.every((style) => style.status === "pending")).toBe(true);
    expect(new Set(styles.map((style) => style.seed)).size).toBe(4);
    const jobs = await selectWhere("jobs", "payload", "kind", "stylize-image");
    expect(jobs).toHaveLength(4);

    const engine = testStyleEngine();
    const worker = studioWorker(engine);
    await worker.drain();
    expect(engine.calls.map((call) => call.seed).sort()).toEqual(
      styles.map((style) => style.seed).sort(),
    );
  });

  it("is refused whole, changing nothing, when the four would pass today's styles", async () => {
    useConfig({ STYLIZATIONS_PER_DAY: 3 });
    const { token } = await createTestUser();
    const image = await uploadedImage(token);
    const before = await fingerprint();
    const response = await askAll(image.id, token);
    expect(response.status).toBe(429);
    expectUnchanged(before, await fingerprint(), "a refused all-four request");
  });

  it("is refused whole when the four would pass the styles in progress", async () => {
    const { token } = await createTestUser();
    const image = await uploadedImage(token);
    for (let i = 0; i < MAX_OPEN_STYLIZATIONS - 3; i++) {
      const one = await callRoute(
        stylize.action,
        makeRequest(`/api/token-images/${image.id}/stylize`, { token, json: { style: "anime" } }),
        { id: image.id },
      );
      expect(one.status).toBe(202);
    }
    const before = await fingerprint();
    const response = await askAll(image.id, token);
    expect(response.status).toBe(429);
    expect((await response.json()).message).toMatch(/styles in progress/);
    expectUnchanged(before, await fingerprint(), "an all-four request past the open styles");
  });
});

describe("re-roll", () => {
  it("makes the same photo and style again with a new seed, keeping the earlier result", async () => {
    const { token } = await createTestUser();
    const image = await uploadedImage(token);
    const first = await (
      await callRoute(
        stylize.action,
        makeRequest(`/api/token-images/${image.id}/stylize`, { token, json: { style: "cartoon" } }),
        { id: image.id },
      )
    ).json();
    const engine = testStyleEngine({ id: "fal" });
    await studioWorker(engine).drain();

    const response = await callRoute(
      reroll.action,
      makeRequest(`/api/token-stylized-images/${first.id}/reroll`, { method: "POST", token }),
      { id: first.id },
    );
    expect(response.status).toBe(202);
    const rerolled = await response.json();
    expect(rerolled).toMatchObject({ imageId: image.id, style: "cartoon", status: "pending" });
    expect(rerolled.id).not.toBe(first.id);
    await studioWorker(engine).drain();

    const list = (await (
      await callRoute(stylizedList.loader, makeRequest("/api/token-stylized-images", { token }))
    ).json()) as { id: string; status: string; seed: number; provider: string }[];
    expect(list.map((item) => item.id).sort()).toEqual([first.id, rerolled.id].sort());
    expect(list.every((item) => item.status === "completed")).toBe(true);
    const [earlier, later] = [
      list.find((item) => item.id === first.id)!,
      list.find((item) => item.id === rerolled.id)!,
    ];
    expect(typeof earlier.seed).toBe("number");
    expect(later.seed).not.toBe(earlier.seed);
    // The engine was asked with each style's stored seed.
    expect(engine.calls.map((call) => call.seed)).toEqual([earlier.seed, later.seed]);
  });

  it("answers 404 for another creator's style and asks for nothing", async () => {
    const owner = await createTestUser();
    const other = await createTestUser();
    const image = await uploadedImage(owner.token);
    const first = await (
      await callRoute(
        stylize.action,
        makeRequest(`/api/token-images/${image.id}/stylize`, {
          token: owner.token,
          json: { style: "anime" },
        }),
        { id: image.id },
      )
    ).json();
    const before = await fingerprint();
    const response = await callRoute(
      reroll.action,
      makeRequest(`/api/token-stylized-images/${first.id}/reroll`, {
        method: "POST",
        token: other.token,
      }),
      { id: first.id },
    );
    expect(response.status).toBe(404);
    expectUnchanged(before, await fingerprint(), "a re-roll of someone else's style");
  });
});
