import fs from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CHECK_LIMITS,
  checkContentCredentials,
  endCheckWorker,
} from "~/engines/provenance/credentials-check.server";
import {
  originalIngredient,
  signImage,
  styledFileFacts,
} from "~/engines/provenance/content-credentials.server";
import {
  identityOf,
  selfMadeCredentials,
  SELF_MADE_ORGANIZATION,
  type SigningIdentity,
} from "~/engines/provenance/signing-identity.server";
import { DIGITAL_SOURCE_TYPES, disclosureXmp } from "~/engines/styling/ai-disclosure.server";
import {
  cborBombJumbf,
  deeplyNestedJumbf,
  jpegWithJumbf,
  jumbfSuperbox,
} from "#tests/setup/hostile-files";

/**
 * The public check reads any file in a worker of its own: our own files read
 * as valid and say how they were made; a file without a manifest, a changed
 * one, one that is not an image, one cut short and crafted manifest stores
 * each get their answer within the limits, never a hang.
 */

let dataDir: string;
let identity: SigningIdentity;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-c2pa-check-"));
  identity = identityOf(await selfMadeCredentials(dataDir), true);
});

afterAll(async () => {
  await endCheckWorker();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function signed(format: "jpeg" | "png" | "webp", sourceType: string): Promise<Buffer> {
  const image = sharp({
    create: { width: 200, height: 150, channels: 3, background: "#446688" },
  }).withXmp(disclosureXmp("fal.ai test-model", sourceType));
  const unsigned = await image[format]().toBuffer();
  const original = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } })
    .png()
    .toBuffer();
  return signImage(
    unsigned,
    styledFileFacts(unsigned, {
      original: originalIngredient(original),
      when: new Date("2026-12-02T08:30:00Z"),
    }),
    identity,
  );
}

describe("checkContentCredentials", () => {
  it("reads our own files in every delivered format: valid, who signed, how it was made, when", async () => {
    for (const format of ["jpeg", "png", "webp"] as const) {
      expect(await checkContentCredentials(await signed(format, DIGITAL_SOURCE_TYPES.fal))).toEqual(
        {
          read: true,
          report: {
            manifest: true,
            valid: true,
            signer: SELF_MADE_ORGANIZATION,
            digitalSourceType: DIGITAL_SOURCE_TYPES.fal,
            claimGenerator: "Selfie Studio",
            createdAt: "2026-12-02T08:30:00.000Z",
          },
        },
      );
    }
  });

  it("says there is no manifest in an image without one, and in a re-encoded copy", async () => {
    const copy = await sharp(await signed("jpeg", DIGITAL_SOURCE_TYPES.local))
      .jpeg()
      .toBuffer();
    expect(await checkContentCredentials(copy)).toEqual({
      read: true,
      report: { manifest: false },
    });
  });

  it("a file changed after signing has a manifest that does not validate", async () => {
    const file = await signed("png", DIGITAL_SOURCE_TYPES.local);
    file[file.length - 1] ^= 0xff;
    expect(await checkContentCredentials(file)).toMatchObject({
      read: true,
      report: { manifest: true, valid: false },
    });
  });

  it("refuses what is not a JPEG, PNG or WebP before starting anything, and a file cut short", async () => {
    expect(await checkContentCredentials(Buffer.from("%PDF-1.7 not an image"))).toEqual({
      read: false,
      reason: "not-an-image",
    });
    expect(await checkContentCredentials(Buffer.alloc(0))).toEqual({
      read: false,
      reason: "not-an-image",
    });
    for (const format of ["jpeg", "png", "webp"] as const) {
      const whole = await signed(format, DIGITAL_SOURCE_TYPES.fal);
      for (const keep of [0.99, 0.5, 0.02]) {
        const cut = whole.subarray(0, Math.floor(whole.length * keep));
        expect(await checkContentCredentials(cut), `${format} cut to ${keep}`).toEqual({
          read: false,
          reason: "damaged",
        });
      }
    }
  });

  it("answers crafted manifest stores within the limits: nested deep, a CBOR bomb, past the size cap, garbage", async () => {
    const jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: "#fff" } })
      .jpeg()
      .toBuffer();
    const notValid = {
      read: true,
      report: {
        manifest: true,
        valid: false,
        signer: null,
        digitalSourceType: null,
        claimGenerator: null,
        createdAt: null,
      },
    };
    const started = performance.now();
    for (const [jumbf, answer] of [
      // Refused by its shape before c2pa-ts sees it (which takes seconds over a tree this deep).
      [deeplyNestedJumbf(20_000), { read: false, reason: "too-complex" }],
      [
        jumbfSuperbox("c2pa", [Buffer.alloc(CHECK_LIMITS.maxManifestBytes)]),
        { read: false, reason: "too-complex" },
      ],
      // A claim of 2^32 - 1 CBOR items in ten bytes, and boxes that do not fit: a manifest that does not validate.
      [cborBombJumbf(), notValid],
      [jumbfSuperbox("c2pa", [Buffer.from("garbage that is no box at all")]), notValid],
    ] as const) {
      expect(await checkContentCredentials(jpegWithJumbf(jpeg, jumbf))).toEqual(answer);
    }
    // One worker load at most (seconds on a busy machine), then milliseconds each.
    expect(performance.now() - started).toBeLessThan(CHECK_LIMITS.loadMs + CHECK_LIMITS.checkMs);
  });

  it("ends a worker that does not answer in time, and answers 503 when it cannot even start in time", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "selfie-check-worker-"));
    try {
      const stuck = path.join(dir, "stuck.mjs");
      await writeFile(
        stuck,
        'import { parentPort } from "node:worker_threads";\nparentPort.postMessage({ ready: true });\nparentPort.on("message", () => { for (;;) {} });\n',
      );
      const file = await signed("jpeg", DIGITAL_SOURCE_TYPES.fal);
      const started = performance.now();
      expect(await checkContentCredentials(file, { ...CHECK_LIMITS, checkMs: 300 }, stuck)).toEqual(
        { read: false, reason: "timed-out" },
      );
      expect(performance.now() - started).toBeLessThan(5_000);

      const silent = path.join(dir, "silent.mjs");
      await writeFile(silent, "setInterval(() => {}, 1000);\n");
      await expect(
        checkContentCredentials(file, { ...CHECK_LIMITS, loadMs: 300 }, silent),
      ).rejects.toMatchObject({ status: 503 });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
