import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import zlib from "node:zlib";
import sharp from "sharp";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { getFileStore } from "~/infra/file-store.server";
import { JobWorker } from "~/infra/jobs/job-worker.server";
import type { StyleEngine } from "~/engines/styling/style-engine.server";
import { STYLIZE_JOB } from "~/features/studio/styles/stylized-images.server";
import { stylizeJobHandler } from "~/features/studio/styles/stylize-job.server";
import { currentFaceConsentVersion } from "~/features/privacy/public.server";
import type { StyleId } from "~/lib/styles";
import { makeRequest, type RequestOptions } from "./requests";
import { contentCredentialsFor } from "~/engines/provenance/content-credentials.server";

/** Test images and helpers for the creator studio. */

export const FIXTURES = path.resolve(
  path.dirname(url.fileURLToPath(import.meta.url)),
  "../fixtures",
);
export const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name));

/** A multipart upload request carrying `data` in the field `field` (default "image"). */
export function uploadRequest(
  data: Uint8Array,
  options: RequestOptions & { filename?: string; type?: string; field?: string; url?: string } = {},
): Request {
  const form = new FormData();
  form.append(
    options.field ?? "image",
    new Blob([new Uint8Array(data)], { type: options.type ?? "image/png" }),
    options.filename ?? "selfie.png",
  );
  return makeRequest(options.url ?? "/api/token-images/upload", {
    ...options,
    method: "POST",
    body: form,
  });
}

/** A PNG whose header claims 20000 x 20000 pixels (400 MP) in about 50 KB: a decompression bomb. */
export function pngBomb(width = 20_000, height = 20_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth 1
  ihdr[9] = 0; // greyscale
  const row = 1 + Math.ceil(width / 8);
  const idat = zlib.deflateSync(Buffer.alloc(row * height), { level: 9 });
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk("IHDR", ihdr),
    pngChunk("IDAT", idat),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A JPEG carrying EXIF with a GPS position and an orientation of 6 (rotate 90 degrees to view). */
export async function jpegWithGpsAndRotation(): Promise<Buffer> {
  return sharp(fixture("rocket.jpg"))
    .withExif({
      IFD0: { Make: "TestCam", Model: "Locator 9000" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "51/1 30/1 2613/100",
        GPSLongitudeRef: "W",
        GPSLongitude: "0/1 7/1 3960/100",
      },
    })
    .withMetadata({ orientation: 6 })
    .jpeg()
    .toBuffer();
}

/**
 * A stand-in for the style engine: a real, deterministic image transformation
 * (so the rest of the pipeline handles real files), recording its calls.
 */
export function testStyleEngine(
  options: {
    id?: "local" | "fal";
    fail?: (call: number) => Error | null;
    gate?: Promise<void>;
    xmp?: string;
  } = {},
) {
  const calls: { style: StyleId; bytes: number; seed?: number }[] = [];
  const engine: StyleEngine & { calls: typeof calls } = {
    id: options.id ?? "local",
    calls,
    async stylize(input, style, stylizeOptions) {
      calls.push({ style, bytes: input.byteLength, seed: stylizeOptions?.seed });
      const failure = options.fail?.(calls.length);
      if (failure) throw failure;
      if (options.gate) await options.gate;
      stylizeOptions?.signal?.throwIfAborted();
      let pipeline = sharp(input)
        .resize(256, 256, { fit: "cover" })
        .modulate({ saturation: style === "anime" ? 1.8 : 0.6 });
      if (options.xmp) pipeline = pipeline.withXmp(options.xmp);
      const { data, info } = await pipeline
        .jpeg({ quality: 85 })
        .toBuffer({ resolveWithObject: true });
      return { data, format: "jpg", width: info.width, height: info.height };
    },
  };
  return engine;
}

/** A worker over the test database that styles with `engine` (checking free space with `ensureSpace` when given). */
export function studioWorker(
  engine: StyleEngine,
  options: { concurrency?: number; ensureSpace?: () => Promise<void> } = {},
) {
  return new JobWorker({
    db: getDb(),
    handlers: {
      [STYLIZE_JOB]: stylizeJobHandler({
        store: getFileStore(),
        engine: () => engine,
        faceConsentVersion: () => currentFaceConsentVersion(getConfig()),
        credentials: contentCredentialsFor(getConfig()),
        ensureSpace: options.ensureSpace,
      }),
    },
    concurrency: options.concurrency ?? 2,
    log: () => {},
  });
}
