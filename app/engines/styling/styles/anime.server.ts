import { seededRandom } from "~/engines/styling/seeded-random.server";
import {
  blurRgb,
  drawDisc,
  lumaAt,
  newRgb,
  smoothNoise,
} from "~/engines/styling/styles/compose.server";
import type { StyleRender } from "~/engines/styling/styles/style-render.server";
import * as toon from "~/engines/styling/styles/toon.server";
import { ovalPlane } from "~/engines/styling/vision/face-regions.server";
import { blurred, smoothstep } from "~/engines/styling/vision/planes.server";

/**
 * Anime: the person cel-shaded. The photo is flattened and quantised to a
 * few colours, then lit in flat cels: each pixel is the shadow, base or
 * highlight tone of its colour, by how much brighter or darker it is than
 * its surroundings (hard steps, large bright highlights). The face is one
 * smooth skin tone with a single shadow cel, blush-free and pore-free; the
 * eyes are drawn (a dark iris, white, two big catchlights), the lips a small
 * flat tint. Thin clean warm-brown line art runs over the whole person, the
 * face included, over a painted sky: a blue-to-peach gradient with soft
 * clouds from seeded noise.
 */

const SKY_TOP = [58, 112, 206];
const SKY_MIDDLE = [132, 190, 240];
const SKY_LOW = [255, 218, 196];
const LINE = [62, 36, 40];
const PALETTE_SIZE = 12;
const EYE_WHITE = [250, 248, 246];
const IRIS_DARK = [52, 34, 44];

export const renderAnime: StyleRender = async (scene) => {
  const { width, height, long, mask, outlined, picture, parts } = toon.drawnScene(scene);
  const random = seededRandom(scene.rgb);
  const [paint, clouds, silhouette, face, eyes, lips] = await toon.inTurn([
    () =>
      toon.paintOf(picture, {
        median: long / 150,
        sigma: Math.max(1.5, long / 200),
        keep: 34,
        passes: 2,
      }),
    () => smoothNoise(width, height, random, 4, 4),
    () => blurred(mask, Math.max(0.8, long / 600)),
    () => blurred(ovalPlane(width, height, scene.faces), Math.max(0.8, long / 500)),
    () => blurred(parts.eyes, Math.max(0.5, long / 1400)),
    () => blurred(parts.lips, Math.max(0.5, long / 900)),
  ] as const);
  const grey = toon.greyOf(paint);
  const [flat, lines, surround] = await toon.inTurn([
    () => toon.quantised(paint, toon.paletteWithin(paint, mask, PALETTE_SIZE), long / 140),
    // Thin lines: a fine difference of Gaussians, not thickened.
    () => toon.inkLines(grey, Math.max(0.7, long / 900), 4.5, 0),
    // The light around each pixel, for its cel: the paint's brightness broadly blurred.
    () => blurRgb(paint, Math.max(3, long / 45)).then(toon.greyOf),
  ] as const);

  // The skin: the oval's paint without the eyes, brows and lips, made lighter and rosier.
  const { skin, skinLuma } = await toon.faceSkin(paint, scene.faces, parts);
  const skinLight = skin
    ? skin.map((c, n) => Math.min(255, (skinLuma + (c - skinLuma) * 1.2) * 1.12 + [10, 2, 0][n]))
    : [0, 0, 0];
  const skinShadow = skinLight.map((c, n) => c * [0.86, 0.76, 0.8][n]);
  const lipTint = skinLight.map((c, n) => c * [0.95, 0.66, 0.7][n]);
  const eyeMean = toon.meanColourWithin(paint, parts.eyes);
  const eyeLuma = eyeMean ? 0.299 * eyeMean[0] + 0.587 * eyeMean[1] + 0.114 * eyeMean[2] : 100;

  const out = newRgb(width, height);
  const o = new Uint8ClampedArray(out.data.buffer, out.data.byteOffset, out.data.length);
  const sky = new Float32Array(3);
  const cel = new Float32Array(3);
  for (let y = 0, k = 0; y < height; y++) {
    const t = y / Math.max(1, height - 1);
    const upper = smoothstep(0, 0.55, t);
    const lower = smoothstep(0.45, 1, t);
    for (let c = 0; c < 3; c++) {
      sky[c] =
        SKY_TOP[c] + (SKY_MIDDLE[c] - SKY_TOP[c]) * upper + (SKY_LOW[c] - SKY_MIDDLE[c]) * lower;
    }
    for (let x = 0; x < width; x++, k++) {
      const i = k * 3;
      // Clouds: the noise above a threshold, lit from above (whiter at the top of each cloud).
      const n = clouds.data[k];
      const cloud = smoothstep(0.5, 0.62, n) * (1 - 0.5 * t);
      const cloudShade = 0.9 + 0.1 * smoothstep(0.55, 0.75, n);
      // Cels: the flat colour in its shadow, base or highlight tone, by the light around it.
      const l = grey.data[k];
      const rel = l / Math.max(0.04, surround.data[k]);
      const level =
        0.74 +
        0.26 * smoothstep(0.9, 0.93, rel) +
        0.24 * smoothstep(1.1, 1.13, rel) * smoothstep(0.45, 0.6, l);
      const fl = lumaAt(flat.data, i);
      for (let c = 0; c < 3; c++) {
        const v = flat.data[i + c];
        cel[c] = (fl + (v - fl) * 1.25) * level;
      }
      const f = face.data[k];
      if (skin && f > 0) {
        // The face: one smooth skin tone with a single shadow cel; drawn eyes; a tint for the lips.
        const shade = smoothstep(0.8, 0.84, (l * 255) / skinLuma);
        const e = eyes.data[k];
        const dark = 1 - smoothstep(0.8, 0.9, (l * 255) / eyeLuma);
        for (let c = 0; c < 3; c++) {
          let colour = skinShadow[c] + (skinLight[c] - skinShadow[c]) * shade;
          colour += (lipTint[c] - colour) * lips.data[k] * 0.8;
          const eye = EYE_WHITE[c] + (IRIS_DARK[c] - EYE_WHITE[c]) * dark;
          colour += (eye - colour) * e;
          cel[c] += (colour - cel[c]) * f;
        }
      }
      const a = mask.data[k];
      const line = Math.max(
        lines.data[k] * smoothstep(0.6, 0.95, a) * 0.9,
        outlined
          ? smoothstep(0.2, 0.35, silhouette.data[k]) *
              (1 - smoothstep(0.65, 0.8, silhouette.data[k])) *
              0.85
          : 0,
      );
      for (let c = 0; c < 3; c++) {
        const back = sky[c] + (255 * cloudShade - sky[c]) * cloud;
        const colour = back + (cel[c] - back) * a;
        o[i + c] = colour + (LINE[c] - colour) * line;
      }
    }
  }

  // Eyes: big catchlights, placed from the iris landmarks, clipped to the eye.
  for (const found of scene.faces) {
    for (const iris of found.irises) {
      const r = Math.max(1, iris.radius);
      drawDisc(out, iris.x - r * 0.3, iris.y - r * 0.35, r * 0.42, [255, 255, 255], 1, eyes);
      drawDisc(out, iris.x + r * 0.35, iris.y + r * 0.32, r * 0.2, [255, 255, 255], 0.9, eyes);
    }
  }
  return { image: out };
};
