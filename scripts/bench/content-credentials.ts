import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp, { type Sharp } from "sharp";
import { DIGITAL_SOURCE_TYPES, disclosureXmp } from "~/engines/styling/ai-disclosure.server";
import {
  originalIngredient,
  signImage,
  styledFileFacts,
} from "~/engines/provenance/content-credentials.server";
import { signingIdentity } from "~/engines/provenance/signing-identity.server";
import { pairedMedianMs, row, type BenchRow } from "./measure";

/**
 * What signing a file's Content Credentials costs (decision 095): the
 * milliseconds signImage takes per file, for a sold file's size (2048 × 2048
 * px, the size most delivered files have: docs/decisions/092) in each
 * delivered format, beside encoding the same pixels in that format with
 * sharp, which every signed file was made by just before. Signed with a
 * self-made certificate (ES256), made once in `scratch` as on a server's first
 * start. Shown only: the figure is per file, paid once where the file is made.
 */
const FORMATS = [
  { name: "JPEG", encode: (image: Sharp) => image.jpeg({ quality: 90 }) },
  { name: "PNG", encode: (image: Sharp) => image.png() },
  { name: "WebP", encode: (image: Sharp) => image.webp({ quality: 90 }) },
] as const;

const SIZE = 2048;

/** A styled-looking 2048 px picture: smooth gradients and some texture, so the encoders have work like a portrait's. */
function pixels(): Buffer {
  const data = Buffer.alloc(SIZE * SIZE * 3);
  for (let y = 0; y < SIZE; y++) {
    for (let x = 0; x < SIZE; x++) {
      const i = (y * SIZE + x) * 3;
      data[i] = (x * 255) / SIZE;
      data[i + 1] = (y * 255) / SIZE;
      data[i + 2] = ((x ^ y) * 7) & 255;
    }
  }
  return data;
}

export async function benchContentCredentials(scratch: string, runs = 15): Promise<BenchRow[]> {
  const dataDir = path.join(scratch, "content-credentials");
  fs.mkdirSync(dataDir, { recursive: true });
  const identity = await signingIdentity({ dataDir, C2PA_CERT: undefined, C2PA_KEY: undefined });
  const raw = pixels();
  const upload = Buffer.from("an uploaded photo");
  const rows: BenchRow[] = [];
  for (const { name, encode } of FORMATS) {
    const picture = () =>
      encode(
        sharp(raw, { raw: { width: SIZE, height: SIZE, channels: 3 } }).withXmp(
          disclosureXmp("Selfie Studio local style engine", DIGITAL_SOURCE_TYPES.local),
        ),
      ).toBuffer();
    const unsigned = await picture();
    const facts = styledFileFacts(unsigned, {
      original: originalIngredient(upload),
      when: new Date(),
    });
    const signed = await signImage(unsigned, facts, identity);
    const timing = await pairedMedianMs(() => signImage(unsigned, facts, identity), picture, runs);
    console.log(
      `\n  ${name} ${SIZE} px (${(unsigned.length / 1024).toFixed(0)} kB): signing ${timing.value.toFixed(1)} ms per file, +${signed.length - unsigned.length} bytes; encoding ${timing.baseline.toFixed(1)} ms.`,
    );
    rows.push(
      row({
        name: `Content Credentials: signing one ${SIZE} px ${name} (ms per file)`,
        value: timing.value,
        baseline: timing.baseline,
        unit: "ms",
        limit: null,
        limitOf: "ratio",
        against: `encoding the same pixels as ${name} with sharp`,
      }),
    );
  }
  return rows;
}

// Alone: npx tsx scripts/bench/content-credentials.ts [runs] (prints its figures, asserts nothing).
if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-bench-"));
  try {
    const { printTable } = await import("./measure");
    printTable(await benchContentCredentials(scratch, Number(process.argv[2] ?? 15)));
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}
