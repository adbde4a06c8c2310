import { blurRgb, drawDisc, lumaAt, newRgb } from "~/engines/styling/styles/compose.server";
import type { StyleRender } from "~/engines/styling/styles/style-render.server";
import {
  drawnScene,
  faceSkin,
  greyOf,
  inkLines,
  inTurn,
  meanColourWithin,
  paintOf,
  paletteWithin,
  quantised,
} from "~/engines/styling/styles/toon.server";
import { ovalPlane } from "~/engines/styling/vision/face-regions.server";
import { blurred, smoothstep } from "~/engines/styling/vision/planes.server";

/**
 * Cartoon: the whole person, face included, drawn as flat paint with bold
 * ink. The photo is flattened (a median pass and edge-preserving smoothing),
 * quantised to the person's own few colours (median cut) with the speckles
 * cleaned away, and made more vivid. The face is one flat skin fill (a
 * darker tone only in its deepest shadows); the eyes become whites with round ink pupils (from the
 * iris landmarks), the brows and lips flat colours. Bold dark outlines from a difference of Gaussians run over all of
 * it (the face too), with a heavier line along the silhouette. The
 * background becomes a flat pastel field of halftone dots, their size
 * following the old background's shadows.
 */

const PALETTE_SIZE = 10;
const SATURATION = 1.5;
const INK = [20, 16, 28];
const EYE_WHITE = [246, 244, 240];

export const renderCartoon: StyleRender = async (scene) => {
  const { width, height, long, mask, outlined, picture, hasFace, parts } = drawnScene(scene);
  const [paint, soft, face, eyes, brows, lips, silhouette] = await inTurn([
    () =>
      paintOf(picture, {
        median: long / 170,
        sigma: Math.max(1.2, long / 260),
        keep: 30,
        passes: 2,
      }),
    () => blurRgb(picture, Math.max(2, long / 60)),
    () => blurred(ovalPlane(width, height, scene.faces), Math.max(0.8, long / 500)),
    () => blurred(parts.eyes, Math.max(0.5, long / 1400)),
    () => blurred(parts.brows, Math.max(0.5, long / 1000)),
    () => blurred(parts.lips, Math.max(0.5, long / 1000)),
    () => blurred(mask, Math.max(1, long / 400)),
  ] as const);
  const grey = greyOf(paint);
  const lineSigma = Math.max(0.8, long / 520);
  const [flat, lines, faceLines] = await inTurn([
    () => quantised(paint, paletteWithin(paint, mask, PALETTE_SIZE), long / 150),
    () => inkLines(grey, lineSigma, 3.5, Math.max(0.6, long / 650)),
    // Fewer, surer lines on the face: its main shapes, not every crease; from the photo itself,
    // so thin dark things the paint smooths away (glasses' frames) are still inked.
    () =>
      hasFace
        ? inkLines(scene.luma, lineSigma, 7, Math.max(0.6, long / 550))
        : Promise.resolve(null),
  ] as const);

  // The face's colours: skin (the oval without its parts), lips and brows, from the paint.
  const { skin, skinLuma } = await faceSkin(paint, scene.faces, parts);
  const vivid = (colour: number[], amount: number) => {
    const y = 0.299 * colour[0] + 0.587 * colour[1] + 0.114 * colour[2];
    return colour.map((c) => y + (c - y) * amount);
  };
  const skinTone = skin ? vivid(skin, 1.35).map((c) => c * 1.04) : [0, 0, 0];
  const lipTone = vivid(meanColourWithin(paint, parts.lips) ?? [190, 90, 90], 1.5).map(
    (c) => c * 0.92,
  );
  const browTone = (meanColourWithin(paint, parts.brows) ?? [70, 50, 40]).map((c) => c * 0.55);

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
  const person = new Float32Array(3);
  for (let y = 0, k = 0; y < height; y++) {
    for (let x = 0; x < width; x++, k++) {
      const i = k * 3;
      // The person: flat paint, made vivid.
      const fr = flat.data[i];
      const fg = flat.data[i + 1];
      const fb = flat.data[i + 2];
      const fy = 0.299 * fr + 0.587 * fg + 0.114 * fb;
      person[0] = fy + (fr - fy) * SATURATION;
      person[1] = fy + (fg - fy) * SATURATION;
      person[2] = fy + (fb - fy) * SATURATION;
      const f = face.data[k];
      if (skin && f > 0) {
        // The face: one flat skin fill, with a darker tone only in the deepest shadows (the ink
        // draws its shapes; the anime style shades it instead).
        const rel = lumaAt(paint.data, i) / skinLuma;
        const level = 0.8 + 0.2 * smoothstep(0.62, 0.65, rel);
        const e = eyes.data[k];
        for (let c = 0; c < 3; c++) {
          let colour = skinTone[c] * level;
          colour += (browTone[c] - colour) * brows.data[k];
          colour += (lipTone[c] * (0.85 + 0.15 * level) - colour) * lips.data[k];
          colour += (EYE_WHITE[c] - colour) * e;
          person[c] += (colour - person[c]) * f;
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
      // Ink: the lines over the whole person (face included), the eyes' rims and the silhouette.
      const drawn = faceLines
        ? lines.data[k] + (faceLines.data[k] - lines.data[k]) * f
        : lines.data[k];
      const inner = drawn * smoothstep(0.4, 0.8, a);
      const rim = smoothstep(0.05, 0.25, eyes.data[k]) * (1 - smoothstep(0.55, 0.8, eyes.data[k]));
      const outline = outlined
        ? smoothstep(0.12, 0.3, silhouette.data[k]) *
          (1 - smoothstep(0.7, 0.88, silhouette.data[k]))
        : 0;
      const ink = Math.min(1, Math.max(inner, rim * f, outline));
      for (let c = 0; c < 3; c++) {
        const back = field[c] + (dots[c] - field[c]) * dot;
        const colour = back + (person[c] - back) * a;
        o[i + c] = colour + (INK[c] - colour) * ink;
      }
    }
  }
  // The eyes: a round ink pupil on each white, with a dot of light, clipped to the eye.
  for (const found of scene.faces) {
    for (const iris of found.irises) {
      const r = Math.max(1.5, iris.radius * 0.8);
      drawDisc(out, iris.x, iris.y, r, INK, 1, eyes);
      drawDisc(
        out,
        iris.x - r * 0.35,
        iris.y - r * 0.35,
        Math.max(0.8, r * 0.28),
        EYE_WHITE,
        1,
        eyes,
      );
    }
  }
  return { image: out };
};
