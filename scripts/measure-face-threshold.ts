/**
 * npx tsx scripts/measure-face-threshold.ts
 *
 * Measures the face descriptor's similarity on portraits of known people and
 * prints, for a range of thresholds, the false-accept rate (pairs of two
 * different people at or above it) and the false-reject rate (pairs of one
 * person below it). Decision record 083 quotes its output; the threshold
 * the app uses is SAME_PERSON_SIMILARITY in face-descriptor.server.ts.
 *
 * The pictures: the portraits in tests/fixtures, and face pictures cut out of
 * the sample screenshots that @vladmandic/human ships (assets/, MIT), read
 * from node_modules at run time: the library's author photographed many
 * times, a blond man twice, and other people once each (told apart by eye).
 * People with one photo also get a second
 * "portrait" of themselves made from it (mirrored, re-framed, darker, blurred
 * and recompressed): a weaker test than a second photograph, counted apart.
 */
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import url from "node:url";
import sharp from "sharp";
import {
  describeFaces,
  faceSimilarity,
  SAME_PERSON_SIMILARITY,
} from "~/engines/styling/vision/face-descriptor.server";
import { stopVision } from "~/engines/styling/vision/vision-client.server";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const fixtures = path.join(root, "tests", "fixtures");
const require = createRequire(import.meta.url);
// The package's export map lists no package.json: its assets are found from its main file (dist/).
const assets = path.join(path.dirname(require.resolve("@vladmandic/human")), "..", "assets");

interface Rect {
  left: number;
  top: number;
  width: number;
  height: number;
}
interface Portrait {
  label: string;
  person: string;
  file: string;
  rect?: Rect;
  /** A made-up second photo (see the header). */
  derived?: boolean;
}

// screenshot-facematch.jpg (1920x954): rows of face pictures, 18 a row, 106.67 px apart.
const CELL = 1920 / 18;
function matchCell(row: number, column: number): Rect {
  const top = row === 0 ? 298 : 408;
  return { left: Math.round(column * CELL) + 4, top, width: Math.round(CELL) - 8, height: 78 };
}
const facematch = path.join(assets, "screenshot-facematch.jpg");
const facedetect = path.join(assets, "screenshot-facedetect.jpg");
const faceid = path.join(assets, "screenshot-faceid.jpg");

const PORTRAITS: Portrait[] = [
  {
    label: "Eileen Collins (fixtures)",
    person: "collins",
    file: path.join(fixtures, "portrait.png"),
  },
  {
    label: "Grace Hopper (fixtures)",
    person: "hopper",
    file: path.join(fixtures, "portrait-hopper.jpg"),
  },
  // The library's author: the face-id demo, the face-detect demo, and the face-match demo's first row.
  {
    label: "author, face-id demo",
    person: "author",
    file: faceid,
    rect: { left: 13, top: 142, width: 141, height: 139 },
  },
  {
    label: "author, face-detect demo",
    person: "author",
    file: facedetect,
    rect: { left: 8, top: 346, width: 150, height: 150 },
  },
  ...[0, 1, 2, 3, 4, 5, 6, 7, 8, 10].map((column) => ({
    label: `author, face-match demo row 1 #${column + 1}`,
    person: "author",
    file: facematch,
    rect: matchCell(0, column),
  })),
  // Other people.
  ...[1, 2, 3, 4].map((n) => ({
    label: `woman ${n}, face-detect demo`,
    person: `detect-woman-${n}`,
    file: facedetect,
    rect: { left: 8 + n * 156, top: 346, width: 150, height: 150 },
  })),
  // Two photographs of one blond man.
  ...[11, 15].map((column) => ({
    label: `blond man, face-match demo row 1 #${column + 1}`,
    person: "blond-man",
    file: facematch,
    rect: matchCell(0, column),
  })),
  ...[4, 5, 6, 7, 11, 17].map((column) => ({
    label: `face-match demo row 2 #${column + 1}`,
    person: `match-row2-${column}`,
    file: facematch,
    rect: matchCell(1, column),
  })),
];

/** The picture as a PNG: the rectangle, with a margin around it so the detector sees a whole head. */
async function picture(portrait: Portrait): Promise<Buffer> {
  if (!portrait.rect) return fs.promises.readFile(portrait.file);
  const crop = await sharp(portrait.file).extract(portrait.rect).toBuffer();
  const margin = Math.round(portrait.rect.width / 2);
  return sharp(crop)
    .extend({ top: margin, bottom: margin, left: margin, right: margin, extendWith: "copy" })
    .resize({ width: portrait.rect.width * 4 })
    .png()
    .toBuffer();
}

/** The made-up second photo: mirrored, re-framed, darker, blurred, recompressed. */
async function derived(image: Buffer): Promise<Buffer> {
  const meta = await sharp(image).metadata();
  const width = meta.width ?? 0;
  const height = meta.height ?? 0;
  return sharp(image)
    .flop()
    .extract({
      left: Math.round(width * 0.06),
      top: Math.round(height * 0.04),
      width: Math.round(width * 0.9),
      height: Math.round(height * 0.92),
    })
    .modulate({ brightness: 0.8, saturation: 0.7 })
    .blur(1.2)
    .jpeg({ quality: 45 })
    .toBuffer();
}

interface Measured {
  label: string;
  person: string;
  derived: boolean;
  descriptor: number[];
}

async function main() {
  const measured: Measured[] = [];
  const started = Date.now();
  let describedCount = 0;
  for (const portrait of PORTRAITS) {
    const image = await picture(portrait);
    const people = ["author", "blond-man"].includes(portrait.person) ? [false] : [false, true];
    for (const isDerived of people) {
      const input = isDerived ? await derived(image) : image;
      const faces = await describeFaces(input);
      describedCount++;
      const label = isDerived ? `${portrait.label} (made-up second photo)` : portrait.label;
      if (faces.length !== 1) {
        console.log(`skipped: ${label}: ${faces.length} faces found`);
        continue;
      }
      measured.push({
        label,
        person: portrait.person,
        derived: isDerived,
        descriptor: faces[0].descriptor,
      });
    }
  }
  const seconds = (Date.now() - started) / 1000;

  const pairs: Array<{ text: string; similarity: number; same: boolean }> = [];
  const same: number[] = [];
  const sameDerived: number[] = [];
  const different: number[] = [];
  for (let i = 0; i < measured.length; i++) {
    for (let j = i + 1; j < measured.length; j++) {
      const a = measured[i];
      const b = measured[j];
      const similarity = faceSimilarity(a.descriptor, b.descriptor);
      if (!a.derived && !b.derived)
        pairs.push({ text: `${a.label} / ${b.label}`, similarity, same: a.person === b.person });
      if (a.person !== b.person) {
        // One made-up photo per pair at most: a person's two versions are one person.
        if (!a.derived && !b.derived) different.push(similarity);
      } else if (a.derived || b.derived) sameDerived.push(similarity);
      else same.push(similarity);
    }
  }
  const people = new Set(measured.map((m) => m.person));
  const photos = measured.filter((m) => !m.derived).length;
  console.log(
    `\n${photos} photographs of ${people.size} people (+${measured.length - photos} made-up second photos); ${describedCount} pictures described in ${seconds.toFixed(1)} s (${((seconds / describedCount) * 1000).toFixed(0)} ms each, model load included)`,
  );
  const stats = (values: number[]) =>
    values.length === 0
      ? "none"
      : `n=${values.length}, min ${Math.min(...values).toFixed(3)}, median ${median(values).toFixed(3)}, max ${Math.max(...values).toFixed(3)}`;
  console.log(`same person, two photographs: ${stats(same)}`);
  console.log(`same person, photo and made-up second photo: ${stats(sameDerived)}`);
  console.log(`different people: ${stats(different)}`);
  console.log(
    `\nthreshold | false accepts (different people) | false rejects (same, photographs) | false rejects (same, made-up)`,
  );
  for (let t = 0.3; t <= 0.801; t += 0.05) {
    const fa = different.filter((s) => s >= t).length;
    const fr = same.filter((s) => s < t).length;
    const frd = sameDerived.filter((s) => s < t).length;
    const mark = Math.abs(t - SAME_PERSON_SIMILARITY) < 1e-6 ? "  <- SAME_PERSON_SIMILARITY" : "";
    console.log(
      `${t.toFixed(2)} | ${rate(fa, different.length)} | ${rate(fr, same.length)} | ${rate(frd, sameDerived.length)}${mark}`,
    );
  }
  const closest = pairs.filter((p) => !p.same).sort((a, b) => b.similarity - a.similarity);
  const farthest = pairs.filter((p) => p.same).sort((a, b) => a.similarity - b.similarity);
  console.log("\nmost alike different people:");
  for (const p of closest.slice(0, 5)) console.log(`  ${p.similarity.toFixed(3)} ${p.text}`);
  console.log("least alike same person:");
  for (const p of farthest.slice(0, 5)) console.log(`  ${p.similarity.toFixed(3)} ${p.text}`);
  await stopVision();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

function rate(count: number, total: number): string {
  return total === 0 ? "-" : `${count}/${total} (${((100 * count) / total).toFixed(1)} %)`;
}

await main();
