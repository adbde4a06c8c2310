import {
  medianCutPalette,
  nearestColourTable,
  nearestEntry,
  UNKNOWN_ENTRY,
} from "~/engines/styling/palette.server";
import { blurRgb, lumaAt, newRgb, smoothRgb } from "~/engines/styling/styles/compose.server";
import type { StyleRender } from "~/engines/styling/styles/style-render.server";
import { featurePlane, ovalPlane } from "~/engines/styling/vision/face-regions.server";
import { blurred, newPlane, smoothstep } from "~/engines/styling/vision/planes.server";

/**
 * Cartoon: the person in flat colours (edge-preserving smoothing, then the
 * person's own palette by median cut, made more vivid) with clean bold
 * outlines (a difference of Gaussians on the person only, and a heavier line
 * along the silhouette). The face is drawn in three clean skin tones instead
 * of palette blotches, with eyes, brows and lips kept crisp from the photo.
 * The background becomes a flat pastel field of halftone dots, their size
 * following the old background's shadows.
 */

const PALETTE_SIZE = 16;
const SATURATION = 1.15;
const INK = [20, 16, 28];

export const renderCartoon: StyleRender = async (scene) => {
  const { width, height } = scene;
  // Without a clear person the whole picture is drawn in the style, with no silhouette line.
  const mask = scene.subject === "centre" ? newPlane(width, height, 1) : scene.mask;
  const outlined = scene.subject === "person";
  const long = Math.max(width, height);
  const picture = { data: scene.rgb, width, height };
  const [smooth, soft, face, features, silhouette] = await Promise.all([
    smoothRgb(picture, Math.max(1.2, long / 300), 30).then((once) =>
      smoothRgb(once, Math.max(1.2, long / 300), 30),
    ),
    blurRgb(picture, Math.max(2, long / 60)),
    scene.faces.length > 0
      ? blurred(ovalPlane(width, height, scene.faces), Math.max(1, long / 400))
      : Promise.resolve(null),
    scene.faces.length > 0
      ? blurred(featurePlane(width, height, scene.faces), Math.max(0.8, long / 700))
      : Promise.resolve(null),
    blurred(mask, Math.max(1, long / 400)),
  ]);
  // Outlines: a difference of Gaussians of the smoothed brightness.
  const grey = newPlane(width, height);
  for (let k = 0, i = 0; k < grey.data.length; k++, i += 3)
    grey.data[k] = lumaAt(smooth.data, i) / 255;
  const sigma = Math.max(0.8, long / 700);
  const [fine, coarse] = await Promise.all([blurred(grey, sigma), blurred(grey, sigma * 1.8)]);

  // The person's palette (from the smoothed pixels inside the mask), made vivid.
  const sampled = newRgb(width, height);
  let kept = 0;
  for (let k = 0, i = 0; k < mask.data.length; k++, i += 3) {
    if (mask.data[k] < 0.5) continue;
    sampled.data[kept * 3] = smooth.data[i];
    sampled.data[kept * 3 + 1] = smooth.data[i + 1];
    sampled.data[kept * 3 + 2] = smooth.data[i + 2];
    kept++;
  }
  const palette =
    kept >= 16
      ? medianCutPalette(
          { data: sampled.data.subarray(0, kept * 3), width: kept, height: 1, channels: 3 },
          PALETTE_SIZE,
        )
      : medianCutPalette({ data: smooth.data, width, height, channels: 3 }, PALETTE_SIZE);
  const nearest = nearestColourTable();

  // The face's skin colour: the mean inside the oval, away from the features.
  let skinR = 0;
  let skinG = 0;
  let skinB = 0;
  let skinN = 0;
  let skinLuma = 0;
  if (face && features) {
    for (let k = 0, i = 0; k < face.data.length; k++, i += 3) {
      if (face.data[k] < 0.9 || features.data[k] > 0.05) continue;
      skinR += smooth.data[i];
      skinG += smooth.data[i + 1];
      skinB += smooth.data[i + 2];
      skinLuma += lumaAt(smooth.data, i);
      skinN++;
    }
  }
  if (skinN > 0) {
    skinLuma /= skinN;
    // The skin's mean colour, a little warmer and more saturated (drawn skin is never grey).
    const [r, g, b] = [skinR / skinN, skinG / skinN, skinB / skinN];
    skinR = skinLuma + (r - skinLuma) * 1.15 + 5;
    skinG = skinLuma + (g - skinLuma) * 1.15;
    skinB = skinLuma + (b - skinLuma) * 1.15 - 3;
  }

  // The background field: a pale version of the background's own mean colour.
  let bgR = 0;
  let bgG = 0;
  let bgB = 0;
  let bgN = 0;
  for (let k = 0, i = 0; k < mask.data.length; k += 7, i += 21) {
    if (mask.data[k] > 0.3) continue;
    bgR += soft.data[i];
    bgG += soft.data[i + 1];
    bgB += soft.data[i + 2];
    bgN++;
  }
  const mean = bgN > 0 ? [bgR / bgN, bgG / bgN, bgB / bgN] : [200, 200, 210];
  const meanLuma = 0.299 * mean[0] + 0.587 * mean[1] + 0.114 * mean[2];
  const field = mean.map((c) => Math.min(255, 215 + (c - meanLuma) * 1.2));
  const dots = field.map((c) => c * 0.72);
  const cell = Math.max(5, long / 90);
  const cos = Math.SQRT1_2;

  const out = newRgb(width, height);
  const o = new Uint8ClampedArray(out.data.buffer, out.data.byteOffset, out.data.length);
  const vivid = new Float32Array(3);
  for (let y = 0, k = 0; y < height; y++) {
    for (let x = 0; x < width; x++, k++) {
      const i = k * 3;
      // The person: the nearest palette colour, made vivid.
      const sr = smooth.data[i];
      const sg = smooth.data[i + 1];
      const sb = smooth.data[i + 2];
      const index = ((sr >> 3) << 10) | ((sg >> 3) << 5) | (sb >> 3);
      let entry = nearest[index];
      if (entry === UNKNOWN_ENTRY) entry = nearestEntry(palette, nearest, index);
      const pr = palette[entry * 3];
      const pg = palette[entry * 3 + 1];
      const pb = palette[entry * 3 + 2];
      const py = 0.299 * pr + 0.587 * pg + 0.114 * pb;
      vivid[0] = py + (pr - py) * SATURATION;
      vivid[1] = py + (pg - py) * SATURATION;
      vivid[2] = py + (pb - py) * SATURATION;
      if (face && features && skinN > 0 && face.data[k] > 0) {
        // Skin in three clean tones; the features from the photo, sharpened by contrast.
        const rel = lumaAt(smooth.data, i) / skinLuma;
        const level = 0.8 + 0.13 * smoothstep(0.8, 0.84, rel) + 0.12 * smoothstep(1.06, 1.1, rel);
        const f = Math.min(1, features.data[k] * 1.5);
        const a = face.data[k];
        for (let c = 0; c < 3; c++) {
          const skin = [skinR, skinG, skinB][c] * level * 1.04;
          const photo = scene.rgb[i + c];
          const featureColour = (photo - 128) * 1.2 + 128;
          const faceColour = skin + (featureColour - skin) * f;
          vivid[c] += (faceColour - vivid[c]) * a;
        }
      }
      // The background: halftone dots on a flat field (a 45-degree screen).
      const u = (x * cos + y * cos) / cell;
      const v = (x * cos - y * cos) / cell;
      const du = u - Math.floor(u) - 0.5;
      const dv = v - Math.floor(v) - 0.5;
      const darkness = 1 - lumaAt(soft.data, i) / 255;
      const radius = 0.12 + 0.38 * darkness;
      const dot = 1 - smoothstep(radius - 0.06, radius + 0.06, Math.sqrt(du * du + dv * dv));
      const a = mask.data[k];
      // Ink: the person's inner lines (not inside the features, which keep their own) and the silhouette.
      const edge = (coarse.data[k] - fine.data[k]) * 255;
      const inner =
        smoothstep(2.5, 6, edge) * smoothstep(0.5, 0.9, a) * (features ? 1 - features.data[k] : 1);
      const outline = outlined
        ? smoothstep(0.12, 0.3, silhouette.data[k]) *
          (1 - smoothstep(0.7, 0.88, silhouette.data[k]))
        : 0;
      const ink = Math.min(1, Math.max(inner * 0.9, outline));
      for (let c = 0; c < 3; c++) {
        const back = field[c] + (dots[c] - field[c]) * dot;
        const colour = back + (vivid[c] - back) * a;
        o[i + c] = colour + (INK[c] - colour) * ink;
      }
    }
  }
  return { image: out };
};
