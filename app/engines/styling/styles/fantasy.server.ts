import { seededRandom } from "~/engines/styling/seeded-random.server";
import {
  drawSparkle,
  lumaAt,
  newRgb,
  screen,
  smoothNoise,
  wideBlurRgb,
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

  // The scene first: the nebula, with darker lanes from the finer noise, and an aurora curtain in the upper half.
  const backdrop = newRgb(width, height);
  const b = new Uint8ClampedArray(
    backdrop.data.buffer,
    backdrop.data.byteOffset,
    backdrop.data.length,
  );
  const sky = new Float32Array(3);
  for (let y = 0, k = 0; y < height; y++) {
    const t = y / Math.max(1, height - 1);
    for (let x = 0; x < width; x++, k++) {
      const i = k * 3;
      const value = cloud.data[k] * 0.8 + wisps.data[k] * 0.35 - 0.1;
      nebula(Math.min(1, Math.max(0, (value - 0.2) * 1.6)), sky);
      const curtain =
        Math.exp(-(((t - 0.3 - 0.12 * (aurora.data[k] - 0.5)) / 0.12) ** 2)) *
        smoothstep(0.4, 0.7, aurora.data[k]);
      b[i] = sky[0] + (60 - sky[0]) * curtain * 0.6;
      b[i + 1] = sky[1] + (230 - sky[1]) * curtain * 0.6;
      b[i + 2] = sky[2] + (170 - sky[2]) * curtain * 0.6;
    }
  }
  // The scene's light where the person stands: the backdrop widely blurred (it tints, wraps and rims them).
  const ambient = await wideBlurRgb(backdrop, long / 14);
  let meanR = 0;
  let meanG = 0;
  let meanB = 0;
  for (let i = 0; i < ambient.data.length; i += 3) {
    meanR += ambient.data[i];
    meanG += ambient.data[i + 1];
    meanB += ambient.data[i + 2];
  }
  const pixels = Math.max(1, width * height);
  const sceneMean = [meanR / pixels, meanG / pixels, meanB / pixels];
  const sceneLuma = Math.max(1, 0.299 * sceneMean[0] + 0.587 * sceneMean[1] + 0.114 * sceneMean[2]);

  const out = newRgb(width, height);
  const o = new Uint8ClampedArray(out.data.buffer, out.data.byteOffset, out.data.length);
  const s = scene.rgb;
  const light = new Float32Array(3);
  for (let k = 0, i = 0; k < mask.data.length; k++, i += 3) {
    // The person graded into the scene: a little less saturated and darker, lit by the
    // colour of the nebula behind them (multiplied in), shadows sinking into its violet.
    const a = mask.data[k];
    const l = lumaAt(s, i);
    const ar = ambient.data[i];
    const ag = ambient.data[i + 1];
    const ab = ambient.data[i + 2];
    const al = Math.max(1, 0.299 * ar + 0.587 * ag + 0.114 * ab);
    const sink = (1 - smoothstep(0, 170, l)) * 0.45;
    for (let c = 0; c < 3; c++) {
      const ambientTint = ([ar, ag, ab][c] / al) * 0.5 + (sceneMean[c] / sceneLuma) * 0.5;
      const grey = l + (s[i + c] - l) * 0.75;
      const lit = grey * (0.55 + 0.45 * ambientTint) * 0.92;
      light[c] = lit + ([26, 14, 58][c] - lit) * sink;
    }
    // Light wrap: along the inside of the silhouette the scene's light spills over the person.
    const wrap = Math.max(0, a - inner.data[k]) * 2.2;
    for (let c = 0; c < 3; c++) {
      const back = backdrop.data[i + c];
      o[i + c] = back + (light[c] - back) * a;
    }
    if (wrap > 0.01) {
      screen(
        out.data,
        i,
        [Math.min(255, ar * 1.8), Math.min(255, ag * 1.8), Math.min(255, ab * 1.8)],
        Math.min(1, wrap),
      );
      screen(out.data, i, RIM, Math.min(1, wrap) * 0.35);
    }
    const glow = outer.data[k] * (1 - a) * 0.6;
    if (glow > 0.01) screen(out.data, i, GLOW, glow);
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

  // One light over everything: bloom (the bright parts, blurred, screened back on) and a vignette.
  const bright = newRgb(width, height);
  for (let i = 0; i < out.data.length; i += 3) {
    const over = smoothstep(150, 235, lumaAt(out.data, i));
    bright.data[i] = out.data[i] * over;
    bright.data[i + 1] = out.data[i + 1] * over;
    bright.data[i + 2] = out.data[i + 2] * over;
  }
  const bloom = await wideBlurRgb(bright, long / 60);
  for (let y = 0, k = 0; y < height; y++) {
    const dy = (y + 0.5) / height - 0.5;
    for (let x = 0; x < width; x++, k++) {
      const i = k * 3;
      const dx = (x + 0.5) / width - 0.5;
      const vignette = 1 - 0.55 * smoothstep(0.3, 0.75, Math.sqrt(dx * dx + dy * dy) * 1.2);
      for (let c = 0; c < 3; c++) {
        const lit = 255 - ((255 - out.data[i + c]) * (255 - bloom.data[i + c] * 0.7)) / 255;
        o[i + c] = lit * vignette;
      }
    }
  }
  return { image: out };
};
