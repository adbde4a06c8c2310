import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { renderAnime } from "~/engines/styling/styles/anime.server";
import { renderCartoon } from "~/engines/styling/styles/cartoon.server";
import type { Rgb } from "~/engines/styling/styles/compose.server";
import { renderFantasy } from "~/engines/styling/styles/fantasy.server";
import { ovalPlane } from "~/engines/styling/vision/face-regions.server";
import { type Plane } from "~/engines/styling/vision/planes.server";
import { decodePicture, sceneOf, type Scene } from "~/engines/styling/vision/scene.server";
import { stopVision } from "~/engines/styling/vision/vision-client.server";

/**
 * What makes each look read as its name, measured on the renderers' own
 * pixels for the fixture portrait (enlarged to 1024 px, the size the limits
 * are set for): the face drawn, not photographed, in cartoon and anime; the
 * person lit by the scene in fantasy.
 */
const fixtures = path.resolve(
  path.dirname(url.fileURLToPath(import.meta.url)),
  "../../../../tests/fixtures",
);

let scene: Scene;
let face: Plane;
beforeAll(async () => {
  const sharp = (await import("sharp")).default;
  const input = await sharp(fs.readFileSync(path.join(fixtures, "portrait.png")))
    .resize(1024, 1024)
    .png()
    .toBuffer();
  const picture = await decodePicture(input, 1024);
  scene = await sceneOf(picture.rgb, picture.width, picture.height);
  face = ovalPlane(scene.width, scene.height, scene.faces);
}, 60_000);
afterAll(() => stopVision());

const luma = (data: Buffer | Uint8Array, i: number) =>
  0.299 * data[i] + 0.587 * data[i + 1] + 0.114 * data[i + 2];

/** How many colours (16 levels a channel) it takes to cover 90% of the face's pixels. */
function faceColours(image: { data: Buffer | Uint8Array }): number {
  const counts = new Map<number, number>();
  let total = 0;
  for (let k = 0; k < face.data.length; k++) {
    if (face.data[k] < 1) continue;
    const i = k * 3;
    const key =
      ((image.data[i] >> 4) << 8) | ((image.data[i + 1] >> 4) << 4) | (image.data[i + 2] >> 4);
    counts.set(key, (counts.get(key) ?? 0) + 1);
    total++;
  }
  const sorted = [...counts.values()].sort((a, b) => b - a);
  let covered = 0;
  let colours = 0;
  for (const count of sorted) {
    if (covered >= total * 0.9) break;
    covered += count;
    colours++;
  }
  return colours;
}

/** The share of the face's pixels drawn in ink (darker than 60 of 255) where the photo is not dark (above 100): lines added, not shadows kept. */
function faceInk(image: { data: Buffer | Uint8Array }): number {
  let ink = 0;
  let total = 0;
  for (let k = 0; k < face.data.length; k++) {
    if (face.data[k] < 1) continue;
    total++;
    if (luma(image.data, k * 3) < 60 && luma(scene.rgb, k * 3) > 100) ink++;
  }
  return ink / total;
}

/** The mean colour where the mask is above (or below) a level. */
function meanWhere(
  image: { data: Buffer | Uint8Array },
  mask: Plane,
  test: (a: number) => boolean,
) {
  const sum = [0, 0, 0];
  let n = 0;
  for (let k = 0; k < mask.data.length; k++) {
    if (!test(mask.data[k])) continue;
    for (let c = 0; c < 3; c++) sum[c] += image.data[k * 3 + c];
    n++;
  }
  return sum.map((v) => v / n);
}

/** The colour of a mean without its brightness (each channel over the sum), so a tint is compared, not a level. */
const chroma = (colour: number[]) => {
  const sum = colour[0] + colour[1] + colour[2] || 1;
  return colour.map((v) => v / sum);
};
const distance = (a: number[], b: number[]) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);

describe("the looks", () => {
  it("finds the face the measures below need", () => {
    expect(scene.subject).toBe("person");
    expect(scene.faces).toHaveLength(1);
  });

  it("draws the cartoon's face in a few flat colours with bold ink, not as a photo", async () => {
    const photo: Rgb = { data: scene.rgb, width: scene.width, height: scene.height };
    const { image } = await renderCartoon(scene, { inputLongEdge: 1024, maxEdge: 4096 });
    const colours = faceColours(image);
    const ink = faceInk(image);
    console.log(
      `cartoon face: ${colours} colours cover 90% (photo ${faceColours(photo)}), ink ${(ink * 100).toFixed(1)}% (photo ${(faceInk(photo) * 100).toFixed(1)}%)`,
    );
    expect(colours).toBeLessThanOrEqual(10);
    // Lines drawn across the face where the photo has none (eyelids, nose, mouth, jaw).
    expect(ink).toBeGreaterThan(0.004);
  });

  it("cel-shades the anime face: a few flat tones and clean lines", async () => {
    const photo: Rgb = { data: scene.rgb, width: scene.width, height: scene.height };
    const { image } = await renderAnime(scene, { inputLongEdge: 1024, maxEdge: 4096 });
    const colours = faceColours(image);
    const ink = faceInk(image);
    console.log(
      `anime face: ${colours} colours cover 90% (photo ${faceColours(photo)}), ink ${(ink * 100).toFixed(1)}%`,
    );
    expect(colours).toBeLessThanOrEqual(8);
  });

  it("grades the fantasy person into the scene's light instead of pasting the photo on it", async () => {
    const { image } = await renderFantasy(scene, { inputLongEdge: 1024, maxEdge: 4096 });
    const photo = { data: scene.rgb };
    const person = chroma(meanWhere(image, scene.mask, (a) => a > 0.95));
    const before = chroma(meanWhere(photo, scene.mask, (a) => a > 0.95));
    const backdrop = chroma(meanWhere(image, scene.mask, (a) => a < 0.05));
    const moved = 1 - distance(person, backdrop) / distance(before, backdrop);
    console.log(
      `fantasy: the person's tint moved ${(moved * 100).toFixed(0)}% of the way to the scene's`,
    );
    expect(moved).toBeGreaterThan(0.3);
  });
});
