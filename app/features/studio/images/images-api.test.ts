import { DAMAGED_IMAGE } from "~/lib/limits";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import * as media from "~/routes/_resources+/media.$";
import { getDb } from "~/infra/db.server";
import { getLocalFileStore } from "~/infra/file-store.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { fixture, jpegWithGpsAndRotation, pngBomb, uploadRequest } from "#tests/setup/studio";
import { apiRoute } from "#tests/setup/api-routes";
import { rowWhere, rowsWhere, selectWhere } from "#tests/setup/rows-where";
import { updateWhere } from "#tests/setup/update-where";

const upload = apiRoute("/api/token-images/upload");
const images = apiRoute("/api/token-images");
const image = apiRoute("/api/token-images/{id}");

const TOO_LARGE = { message: "Please select a file smaller than 10MB." };
const NOT_AN_IMAGE = { message: "Please select a valid image file (JPG or PNG)." };

const send = (request: Request) => callRoute(upload.action, request);

async function uploaded(
  token: string,
  data: Uint8Array = fixture("portrait.png"),
  filename = "portrait.png",
) {
  const response = await send(uploadRequest(data, { token, filename }));
  expect(response.status).toBe(201);
  return response.json();
}

/** Fetches a signed media URL through the media route. */
async function fetchMedia(url: string) {
  const key = new URL(url, "http://localhost").pathname.replace(/^\/media\//, "");
  return callRoute(media.loader, makeRequest(url), { "*": key });
}

const imagesOf = (userId: string) => selectWhere("images", "id", "user_id", userId);

function scratchFiles(): string[] {
  const dir = path.join(getLocalFileStore().root, "tmp");
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

/** A multipart body served as a stream that counts what the server pulled from it. */
function countingUpload(fileBytes: number, options: { token: string; declareLength?: boolean }) {
  const boundary = "----counting" + crypto.randomBytes(8).toString("hex");
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  const total = head.length + fileBytes + tail.length;
  let sent = 0;
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent === 0) {
        controller.enqueue(head);
        sent += head.length;
        return;
      }
      const fileSent = sent - head.length;
      if (fileSent < fileBytes) {
        const piece = chunk.subarray(0, Math.min(chunk.length, fileBytes - fileSent));
        sent += piece.length;
        // One chunk per macrotask, like a network would deliver it.
        return new Promise<void>((resolve) =>
          setTimeout(() => {
            controller.enqueue(piece);
            resolve();
          }, 0),
        );
      }
      controller.enqueue(tail);
      sent += tail.length;
      controller.close();
    },
    cancel() {
      cancelled = true;
    },
  });
  const headers: Record<string, string> = {
    "Content-Type": `multipart/form-data; boundary=${boundary}`,
    Authorization: `Bearer ${options.token}`,
  };
  if (options.declareLength) headers["Content-Length"] = String(total);
  const request = new Request("http://localhost:3000/api/token-images/upload", {
    method: "POST",
    headers,
    body,
    duplex: "half",
  } as RequestInit);
  return { request, total, pulled: () => sent, cancelled: () => cancelled };
}

describe("POST /api/token-images/upload", () => {
  it("stores a PNG for a bearer client and answers 201 with the image and a signed URL", async () => {
    const { user, token } = await createTestUser();
    const response = await send(uploadRequest(fixture("portrait.png"), { token }));
    expect(response.status).toBe(201);
    expect(response.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    const body = await response.json();
    expect(body).toEqual({
      id: expect.any(String),
      userId: user.id,
      originalUrl: expect.stringMatching(
        /^\/media\/originals\/[A-Za-z0-9_-]+\.png\?exp=\d+&sig=[A-Za-z0-9_-]+$/,
      ),
      width: 512,
      height: 512,
      bytes: expect.any(Number),
      mimeType: "image/png",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      // No verified face: not compared (verified-face.test.ts covers self, other and none).
      likeness: "unverified",
    });
    const file = await fetchMedia(body.originalUrl);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("image/png");
    const served = Buffer.from(await file.arrayBuffer());
    expect(served.length).toBe(body.bytes);
    expect((await sharp(served).metadata()).width).toBe(512);
    expect(scratchFiles()).toEqual([]);
  });

  it("accepts the web session cookie from our own pages, and refuses it cross-site", async () => {
    const { cookie } = await createTestUser();
    expect(
      (await send(uploadRequest(fixture("rocket.jpg"), { cookie, filename: "rocket.jpg" }))).status,
    ).toBe(201);
    const cross = await send(uploadRequest(fixture("rocket.jpg"), { cookie, origin: "cross" }));
    expect(cross.status).toBe(403);
  });

  it("answers 401 without a signed-in caller, before reading the body", async () => {
    const before = await getDb().selectFrom("images").select("id").execute();
    const signedOut = await send(uploadRequest(fixture("portrait.png")));
    expect(signedOut.status).toBe(401);
    const badToken = await send(
      uploadRequest(fixture("portrait.png"), { token: "not-a-real-token" }),
    );
    expect(badToken.status).toBe(401);
    expect(await getDb().selectFrom("images").select("id").execute()).toEqual(before);
  });

  it("keeps JPEG as JPEG: upright (EXIF orientation applied) and with no metadata at all, GPS included", async () => {
    const { token } = await createTestUser();
    const original = await jpegWithGpsAndRotation();
    const before = await sharp(original).metadata();
    expect(before.orientation).toBe(6);
    expect(original.indexOf(Buffer.from([0x25, 0x88]))).toBeGreaterThan(-1); // the GPS IFD pointer tag

    const body = await uploaded(token, original, "gps.jpg");
    expect(body.mimeType).toBe("image/jpeg");
    expect([body.width, body.height]).toEqual([427, 640]); // rotated upright from 640 x 427
    const stored = Buffer.from(await (await fetchMedia(body.originalUrl)).arrayBuffer());
    const metadata = await sharp(stored).metadata();
    expect(metadata.format).toBe("jpeg");
    expect(metadata.exif).toBeUndefined();
    expect(metadata.xmp).toBeUndefined();
    expect(metadata.iptc).toBeUndefined();
    expect(metadata.orientation).toBeUndefined();
    expect(stored.includes(Buffer.from("Locator 9000"))).toBe(false);
  });

  it("decides by the bytes: a PNG named .jpg is a PNG, a WebP with transparency is stored as PNG", async () => {
    const { token } = await createTestUser();
    expect((await uploaded(token, fixture("cat.png"), "cat.jpg")).mimeType).toBe("image/png");
    const webp = await sharp({
      create: { width: 40, height: 30, channels: 4, background: { r: 9, g: 9, b: 9, alpha: 0.5 } },
    })
      .webp()
      .toBuffer();
    const body = await uploaded(token, webp, "clear.webp");
    expect(body.mimeType).toBe("image/png");
    expect([body.width, body.height]).toEqual([40, 30]);
  });

  it("answers 400 when the field is missing, the file is empty, or the body is not multipart", async () => {
    const { token } = await createTestUser();
    const wrongField = await send(
      uploadRequest(fixture("portrait.png"), { token, field: "photo" }),
    );
    expect(wrongField.status).toBe(400);
    expect((await wrongField.json()).message).toMatch(/form field named "image"/);

    const empty = await send(uploadRequest(new Uint8Array(0), { token }));
    expect(empty.status).toBe(400);

    const json = await send(
      makeRequest("/api/token-images/upload", {
        token,
        json: { image: "data:image/png;base64,AAAA" },
      }),
    );
    expect(json.status).toBe(400);
    expect((await json.json()).message).toMatch(/multipart\/form-data/);

    const rawUpload = (body: string, contentType: string) =>
      send(
        makeRequest("/api/token-images/upload", {
          token,
          body,
          headers: { "Content-Type": contentType },
        }),
      );
    const noBoundary = await rawUpload("x", "multipart/form-data");
    expect(noBoundary.status).toBe(400);

    const cutShort = await rawUpload(
      '--b\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nhalf',
      "multipart/form-data; boundary=b",
    );
    expect(cutShort.status).toBe(400);
    expect(scratchFiles()).toEqual([]);
  });

  it("answers 413 for an 11 MB file with the File Too Large message, storing nothing", async () => {
    const { user, token } = await createTestUser();
    const response = await send(
      uploadRequest(crypto.randomBytes(11 * 1024 * 1024), { token, filename: "huge.jpg" }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(TOO_LARGE);
    expect(await imagesOf(user.id)).toEqual([]);
    expect(scratchFiles()).toEqual([]);
  });

  it("accepts a file of exactly 10 MB (the limit is inclusive)", async () => {
    const { token } = await createTestUser();
    // A real JPEG padded to exactly 10 MB with comment (COM) segments, which decoders skip.
    const jpeg = fixture("rocket.jpg");
    const target = 10 * 1024 * 1024;
    const segments: Buffer[] = [jpeg.subarray(0, 2)];
    let size = jpeg.length;
    while (size < target) {
      const room = Math.min(65_533, target - size - 4);
      if (room <= 0) break;
      const header = Buffer.from([0xff, 0xfe, (room + 2) >> 8, (room + 2) & 0xff]);
      segments.push(header, Buffer.alloc(room, 0x20));
      size += 4 + room;
    }
    segments.push(jpeg.subarray(2));
    let padded = Buffer.concat(segments);
    if (padded.length < target)
      padded = Buffer.concat([padded, Buffer.alloc(target - padded.length)]);
    expect(padded.length).toBe(target);
    const response = await send(uploadRequest(padded, { token, filename: "exact.jpg" }));
    expect(response.status).toBe(201);
  });

  it("refuses a body whose declared length is too large before reading any of it", async () => {
    const { token } = await createTestUser();
    // Past what ten files of 10 MB can take (one file over 10 MB is refused as it streams, above).
    const upload = countingUpload(101 * 1024 * 1024, { token, declareLength: true });
    const response = await send(upload.request);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(TOO_LARGE);
    expect(upload.pulled()).toBeLessThan(256 * 1024); // at most what the stream buffered on its own
  });

  it("stops reading a streamed body soon after it passes 10 MB, and only drains a bounded amount", async () => {
    const { token } = await createTestUser();
    const upload = countingUpload(64 * 1024 * 1024, { token });
    const response = await send(upload.request);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual(TOO_LARGE);
    expect(upload.pulled()).toBeLessThan(12 * 1024 * 1024);
    // The rest is thrown away in the background (so a client still sending sees the answer), up to a cap.
    const started = Date.now();
    while (!upload.cancelled() && Date.now() - started < 20_000)
      await new Promise((resolve) => setTimeout(resolve, 20));
    expect(upload.cancelled()).toBe(true);
    expect(upload.pulled()).toBeLessThan(upload.total);
    expect(scratchFiles()).toEqual([]);
  });

  it("answers 415 for a text file named .jpg, a truncated JPEG, a PNG decompression bomb and an SVG, saying which problem it is", async () => {
    const { user, token } = await createTestUser();
    const damaged = { message: DAMAGED_IMAGE.description };
    const cases: [string, Buffer, string, { message: string }][] = [
      [
        "text renamed .jpg",
        Buffer.from("Dear diary, today I took a selfie.\n".repeat(50)),
        "selfie.jpg",
        NOT_AN_IMAGE,
      ],
      ["truncated JPEG", fixture("truncated.jpg"), "truncated.jpg", damaged],
      [
        "truncated PNG",
        fixture("cat.png").subarray(0, Math.floor(fixture("cat.png").length * 0.6)),
        "cat.png",
        damaged,
      ],
      ["PNG bomb (400 MP)", pngBomb(), "bomb.png", NOT_AN_IMAGE],
      [
        "SVG",
        Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg" width="64" height="64"><rect width="64" height="64"/></svg>',
        ),
        "a.png",
        NOT_AN_IMAGE,
      ],
    ];
    for (const [what, data, filename, answer] of cases) {
      const response = await send(uploadRequest(data, { token, filename, type: "image/jpeg" }));
      expect(response.status, what).toBe(415);
      expect(await response.json(), what).toEqual(answer);
    }
    expect(await imagesOf(user.id)).toEqual([]);
    expect(scratchFiles()).toEqual([]);
  });

  it("answers a JSON 405 for other methods", async () => {
    const { token } = await createTestUser();
    const response = await callRoute(
      upload.loader,
      makeRequest("/api/token-images/upload", { token }),
    );
    expect(response.status).toBe(405);
  });
});

describe("GET /api/token-images and /api/token-images/{id}", () => {
  it("lists only the caller's images, newest first, each with its stylized versions", async () => {
    const { token } = await createTestUser();
    const other = await createTestUser();
    const first = await uploaded(token, fixture("portrait.png"));
    const second = await uploaded(token, fixture("cat.png"));
    await uploaded(other.token, fixture("rocket.jpg"));
    await updateWhere("images", { created_at: "2020-01-01T00:00:00.000Z" }, "id", first.id);

    const response = await callRoute(images.loader, makeRequest("/api/token-images", { token }));
    expect(response.status).toBe(200);
    const list = await response.json();
    expect(list.map((item: { id: string }) => item.id)).toEqual([second.id, first.id]);
    expect(list[0].stylized).toEqual([]);
    expect(list[0].originalUrl).toMatch(/^\/media\/originals\//);

    const one = await callRoute(
      image.loader,
      makeRequest(`/api/token-images/${first.id}`, { token }),
      { id: first.id },
    );
    expect(one.status).toBe(200);
    expect((await one.json()).id).toBe(first.id);
  });

  it("answers 404 for another user's image and 401 signed out", async () => {
    const { token } = await createTestUser();
    const other = await createTestUser();
    const theirs = await uploaded(other.token);
    const response = await callRoute(
      image.loader,
      makeRequest(`/api/token-images/${theirs.id}`, { token }),
      { id: theirs.id },
    );
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "Image not found" });
    expect((await callRoute(images.loader, makeRequest("/api/token-images"))).status).toBe(401);
  });
});

describe("DELETE /api/token-images/{id}", () => {
  it("removes the image, its stylized and optimized versions and their files; 404 afterwards", async () => {
    const { user, token } = await createTestUser();
    const body = await uploaded(token);
    const store = getLocalFileStore();
    const row = await rowWhere("images", "*", "id", body.id);
    // A finished stylized version with an optimized file, written as the worker and optimizer would.
    const styledKey = `styled/${crypto.randomBytes(12).toString("base64url")}.jpg`;
    const optimizedKey = `optimized/${crypto.randomBytes(12).toString("base64url")}.webp`;
    await store.write(styledKey, Buffer.from("styled"));
    await store.write(optimizedKey, Buffer.from("optimized"));
    const now = new Date().toISOString();
    await getDb()
      .insertInto("stylized_images")
      .values({
        id: "stylized-1",
        image_id: body.id,
        user_id: user.id,
        style: "anime",
        status: "completed",
        provider: "local",
        file_key: styledKey,
        width: 1,
        height: 1,
        bytes: 6,
        error: null,
        price_cents: null,
        optimized_file_key: optimizedKey,
        optimized_format: "webp",
        optimized_quality: 85,
        optimized_resolution: "original",
        optimized_width: 1,
        optimized_height: 1,
        optimized_bytes: 9,
        watermark: 1,
        social_optimized: 1,
        created_at: now,
        updated_at: now,
        completed_at: now,
      })
      .execute();

    const other = await createTestUser();
    const foreign = await callRoute(
      image.action,
      makeRequest(`/api/token-images/${body.id}`, { method: "DELETE", token: other.token }),
      { id: body.id },
    );
    expect(foreign.status).toBe(404);

    const response = await callRoute(
      image.action,
      makeRequest(`/api/token-images/${body.id}`, { method: "DELETE", token }),
      {
        id: body.id,
      },
    );
    expect(response.status).toBe(204);
    expect(await response.text()).toBe("");
    expect(await rowsWhere("images", "id", body.id)).toEqual([]);
    expect(await rowsWhere("stylized_images", "image_id", body.id)).toEqual([]);
    for (const key of [row.file_key, styledKey, optimizedKey])
      expect(await store.exists(key)).toBe(false);

    const again = await callRoute(
      image.action,
      makeRequest(`/api/token-images/${body.id}`, { method: "DELETE", token }),
      {
        id: body.id,
      },
    );
    expect(again.status).toBe(404);
  });

  it("refuses a cookie delete from another site", async () => {
    const { token, cookie } = await createTestUser();
    const body = await uploaded(token);
    const response = await callRoute(
      image.action,
      makeRequest(`/api/token-images/${body.id}`, { method: "DELETE", cookie, origin: "cross" }),
      { id: body.id },
    );
    expect(response.status).toBe(403);
  });
});
