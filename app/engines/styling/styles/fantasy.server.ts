import { seededRandom } from "~/engines/styling/seeded-random.server";
import {
  drawSparkle,
  lumaAt,
  newRgb,
  screen,
  smoothNoise,
} from "~/engines/styling/styles/compose.server";
import type { StyleRender } from "~/engines/styling/styles/style-render.server";
import { ovalBounds } from "~/engines/styling/vision/face-regions.server";
import { blurred, smoothstep } from "~/engines/styling/vision/planes.server";

/**
 * Fantasy: the person, graded cool and slightly moody, in front of a painted
 * nebula (seeded noise through a violet-teal-rose ramp, a green aurora
 * curtain and a few stars), with a warm rim light along the inside of the
 * mask's edge and a cool glow just outside it. Sparkles are scattered in a
 * band around the silhouette and never land on a face.
 */

const RIM = [255, 214, 150];
const GLOW = [120, 200, 255];
const SPARKLE_COLOURS = [
  [255, 246, 222],
  [255, 214, 140],
  [200, 236, 255],
  [255, 196, 240],
];

/** The nebula's colour ramp, by noise value 0-1. */
function nebula(value: number, out: Float32Array) {
  const stops: Array<[number, number[]]> = [
    [0, [8, 6, 26]],
    [0.35, [30, 18, 70]],
    [0.55, [92, 40, 132]],
    [0.7, [40, 120, 160]],
    [0.85, [230, 120, 190]],
    [1, [255, 220, 240]],
  ];
  for (let s = 1; s < stops.length; s++) {
    if (value <= stops[s][0] || s === stops.length - 1) {
      const [t0, c0] = stops[s - 1];
      const [t1, c1] = stops[s];
      const t = Math.min(1, Math.max(0, (value - t0) / (t1 - t0)));
      for (let c = 0; c < 3; c++) out[c] = c0[c] + (c1[c] - c0[c]) * t;
      return;
    }
  }
}

export const renderFantasy: StyleRender = async (scene) => {
  const { width, height, mask } = scene;
  const long = Math.max(width, height);
  // One generator per use, so that work running side by side cannot change the order of draws.
  const seeded = (use: string) => seededRandom(scene.rgb, Buffer.from(use));
  const random = seeded("stars and sparkles");
  const rimReach = Math.max(1.5, long / 130);
  const [cloud, wisps, inner, outer, aurora] = await Promise.all([
    smoothNoise(width, height, seeded("nebula"), 3, 5),
    smoothNoise(width, height, seeded("lanes"), 8, 3),
    blurred(mask, rimReach),
    blurred(mask, rimReach * 4),
    smoothNoise(width, height, seeded("aurora"), 6, 2),
  ]);

  const out = newRgb(width, height);
  const o = new Uint8ClampedArray(out.data.buffer, out.data.byteOffset, out.data.length);
  const sky = new Float32Array(3);
  const s = scene.rgb;
  for (let y = 0, k = 0; y < height; y++) {
    const t = y / Math.max(1, height - 1);
    for (let x = 0; x < width; x++, k++) {
      const i = k * 3;
      // The nebula, with darker lanes from the finer noise, and an aurora curtain in the upper half.
      const value = cloud.data[k] * 0.8 + wisps.data[k] * 0.35 - 0.1;
      nebula(Math.min(1, Math.max(0, (value - 0.2) * 1.6)), sky);
      const curtain =
        Math.exp(-(((t - 0.3 - 0.12 * (aurora.data[k] - 0.5)) / 0.12) ** 2)) *
        smoothstep(0.4, 0.7, aurora.data[k]);
      sky[0] += (60 - sky[0]) * curtain * 0.6;
      sky[1] += (230 - sky[1]) * curtain * 0.6;
      sky[2] += (170 - sky[2]) * curtain * 0.6;
      // The person: cooler, a little darker in the shadows, lit along the rim.
      const a = mask.data[k];
      const l = lumaAt(s, i);
      const shadow = 0.82 + 0.25 * smoothstep(30, 200, l);
      const rim = Math.max(0, a - inner.data[k]) * 2.4;
      const pr = (s[i] * 0.92 + l * 0.08) * shadow - 4;
      const pg = (s[i + 1] * 0.92 + l * 0.08) * shadow;
      const pb = (s[i + 2] * 0.92 + l * 0.08) * shadow + 10;
      for (let c = 0; c < 3; c++) {
        const person = [pr, pg, pb][c];
        o[i + c] = sky[c] + (person - sky[c]) * a;
      }
      if (rim > 0.01) screen(out.data, i, RIM, Math.min(1, rim));
      const glow = outer.data[k] * (1 - a) * 0.75;
      if (glow > 0.01) screen(out.data, i, GLOW, glow);
    }
  }

  // Stars in the background.
  const stars = Math.round((width * height) / 2500);
  for (let n = 0; n < stars; n++) {
    const x = Math.floor(random() * width);
    const y = Math.floor(random() * height);
    const bright = random();
    const k = y * width + x;
    if (mask.data[k] > 0.05) continue;
    screen(out.data, k * 3, [255, 250, 240], 0.3 + 0.7 * bright * bright);
  }

  // Sparkles in the band around the silhouette, never on a face.
  const faces = scene.faces.map((face) => {
    const [x0, y0, x1, y1] = ovalBounds(face);
    // Padded all round, and more above (hair, a hat): the sparkles keep well off the face.
    const pad = (x1 - x0) * 0.35;
    return [x0 - pad, y0 - pad - (y1 - y0) * 0.4, x1 + pad, y1 + pad];
  });
  const wanted = 26;
  let placed = 0;
  for (let tries = 0; tries < 4000 && placed < wanted; tries++) {
    const x = random() * width;
    const y = random() * height;
    const size = random();
    const tint = SPARKLE_COLOURS[Math.floor(random() * SPARKLE_COLOURS.length)];
    const k = Math.min(height - 1, Math.floor(y)) * width + Math.min(width - 1, Math.floor(x));
    const near = outer.data[k];
    if (mask.data[k] > 0.25 || near < 0.08 || near > 0.6) continue;
    const radius = (0.006 + 0.03 * size * size * size) * long;
    if (
      faces.some(
        ([x0, y0, x1, y1]) =>
          x > x0 - radius && x < x1 + radius && y > y0 - radius && y < y1 + radius,
      )
    ) {
      continue;
    }
    drawSparkle(out, x, y, radius, tint);
    placed++;
  }
  return { image: out };
};
