import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import { renderAnime } from "~/engines/styling/styles/anime.server";
import { renderCartoon } from "~/engines/styling/styles/cartoon.server";
import type { Rgb } from "~/engines/styling/styles/compose.server";
import { renderFantasy } from "~/engines/styling/styles/fantasy.server";
import { featurePlane, ovalPlane } from "~/engines/styling/vision/face-regions.server";
import { blurred, boxFilter, newPlane, type Plane } from "~/engines/styling/vision/planes.server";
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

/** How many colours (16 levels a channel) it takes to cover 90% of the face's pixels (or of `region`'s). */
function faceColours(image: { data: Buffer | Uint8Array }, region: Plane = face): number {
  const counts = new Map<number, number>();
  let total = 0;
  for (let k = 0; k < region.data.length; k++) {
    if (region.data[k] < 1) continue;
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

/** An image's brightness (0-255) as a plane, reduced to 256 px across (fine texture and JPEG-size noise count less). */
async function greyAt256(image: { data: Buffer | Uint8Array }): Promise<Plane> {
  const sharp = (await import("sharp")).default;
  const small = await sharp(Buffer.from(image.data), {
    raw: { width: scene.width, height: scene.height, channels: 3 },
  })
    .resize(256, 256, { fit: "fill" })
    .raw()
    .toBuffer();
  const plane = newPlane(256, 256);
  for (let k = 0; k < plane.data.length; k++) plane.data[k] = luma(small, k * 3);
  return plane;
}

/**
 * The structural similarity (SSIM, Wang et al. 2004) of two grey planes:
 * means, variances and covariance over 7x7 windows, the usual constants for
 * 0-255, averaged over the pixels where `where` is at least a half (all
 * without it). 1 is the same picture; unrelated pictures score near 0.
 */
function ssim(a: Plane, b: Plane, where?: Plane): number {
  const products = (f: (k: number) => number) => {
    const plane = newPlane(a.width, a.height);
    for (let k = 0; k < plane.data.length; k++) plane.data[k] = f(k);
    return boxFilter(plane, 3);
  };
  const meanA = boxFilter(a, 3);
  const meanB = boxFilter(b, 3);
  const aa = products((k) => a.data[k] * a.data[k]);
  const bb = products((k) => b.data[k] * b.data[k]);
  const ab = products((k) => a.data[k] * b.data[k]);
  const c1 = (0.01 * 255) ** 2;
  const c2 = (0.03 * 255) ** 2;
  let sum = 0;
  let count = 0;
  for (let k = 0; k < a.data.length; k++) {
    if (where && where.data[k] < 0.5) continue;
    const x = meanA.data[k];
    const y = meanB.data[k];
    const covariance = ab.data[k] - x * y;
    const variances = aa.data[k] - x * x + (bb.data[k] - y * y);
    sum += ((2 * x * y + c1) * (2 * covariance + c2)) / ((x * x + y * y + c1) * (variances + c2));
    count++;
  }
  return sum / count;
}

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
    // The skin: the face without its features and well around them (the eyes are drawn larger).
    const around = await blurred(featurePlane(scene.width, scene.height, scene.faces), 14);
    const skin = newPlane(scene.width, scene.height);
    skin.data.forEach(
      (_, k) => (skin.data[k] = face.data[k] >= 1 && around.data[k] < 0.02 ? 1 : 0),
    );
    const colours = faceColours(image);
    const skinColours = faceColours(image, skin);
    const ink = faceInk(image);
    console.log(
      `anime face: ${colours} colours cover 90% (photo ${faceColours(photo)}), skin ${skinColours} (photo ${faceColours(photo, skin)}), ink ${(ink * 100).toFixed(1)}%`,
    );
    // Two-tone skin (and its blush and lines); the whole face adds the drawn eyes' white, iris, pupil and lashes, brows and lips.
    expect(skinColours).toBeLessThanOrEqual(8);
    expect(colours).toBeLessThanOrEqual(16);
  });

  it("makes the anime and the cartoon two different drawings of the person, each far from the photo", async () => {
    const sharp = (await import("sharp")).default;
    const target = { inputLongEdge: 1024, maxEdge: 4096 };
    const anime = await greyAt256((await renderAnime(scene, target)).image);
    const cartoon = await greyAt256((await renderCartoon(scene, target)).image);
    const photo = await greyAt256({ data: scene.rgb });
    // The face oval at the same size: the two backgrounds (sky, halftone) differ anyway, so the
    // face is where one filter in two palettes would show (it measured 0.78 when it was one).
    const oval = Buffer.alloc(scene.width * scene.height * 3);
    face.data.forEach((a, k) => oval.fill(Math.round(a * 255), k * 3, k * 3 + 3));
    const onFace = await greyAt256({ data: oval });
    onFace.data.forEach((v, k) => (onFace.data[k] = v / 255));
    const whole = ssim(anime, cartoon);
    const faces = ssim(anime, cartoon, onFace);
    const animeToPhoto = ssim(anime, photo);
    const cartoonToPhoto = ssim(cartoon, photo);
    // The yardstick: a light filter over the photo (a 1.5 px blur) still scores well above 0.8.
    const softened = await greyAt256({
      data: await sharp(scene.rgb, {
        raw: { width: scene.width, height: scene.height, channels: 3 },
      })
        .blur(1.5)
        .raw()
        .toBuffer(),
    });
    const filtered = ssim(softened, photo);
    console.log(
      `SSIM anime/cartoon ${whole.toFixed(3)} (face ${faces.toFixed(3)}); anime/photo ${animeToPhoto.toFixed(3)}, cartoon/photo ${cartoonToPhoto.toFixed(3)}; blurred photo/photo ${filtered.toFixed(3)}`,
    );
    expect(filtered).toBeGreaterThan(0.8);
    expect(whole).toBeLessThan(0.6);
    expect(faces).toBeLessThan(0.6);
    // Each is a redrawing, not a filter over the photo: well under the blurred photo's score.
    expect(animeToPhoto).toBeLessThan(0.7);
    expect(cartoonToPhoto).toBeLessThan(0.7);
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
