import { seededRandom } from "~/engines/styling/seeded-random.server";
import { drawAnimeEyes } from "~/engines/styling/styles/anime-eyes.server";
import { blurRgb, newRgb, smoothNoise, wideBlurRgb } from "~/engines/styling/styles/compose.server";
import type { StyleRender } from "~/engines/styling/styles/style-render.server";
import * as toon from "~/engines/styling/styles/toon.server";
import { type Face, ovalBounds, ovalPlane } from "~/engines/styling/vision/face-regions.server";
import { blurred, newPlane, type Plane, smoothstep } from "~/engines/styling/vision/planes.server";

/**
 * Anime: the person cel-shaded and drawn, over a painted sky. Where the
 * cartoon posterises the photo into flat vivid fills under heavy black ink,
 * the anime style lights its colours: the photo is flattened and quantised
 * to a few colours (the hair from a softer copy, so it lies in broad bands,
 * not speckles), then each pixel takes its colour's shadow (a cooler, darker
 * tone) or lit tone by how much darker it is than its surroundings, with
 * large bright highlights. The face is two-tone skin (one hard-edged shadow
 * cel from the broad light) with a soft blush; the hair gets a jagged
 * highlight band (the "angel ring") around the head; the eyes are redrawn
 * from the face landmarks, opened wider with large dark irises, a pupil,
 * two catchlights and thick upper lashes (see anime-eyes). Thin clean
 * warm-brown line art runs over the whole person; on the face only the
 * photo's strong lines (glasses, the nose, the mouth) are kept. The sky is a
 * blue-to-peach gradient with soft clouds from seeded noise.
 */

const SKY_TOP = [58, 112, 206];
const SKY_MIDDLE = [132, 190, 240];
const SKY_LOW = [255, 218, 196];
const LINE = [62, 36, 40];
const PALETTE_SIZE = 12;
/** The hair's own few tones (from the hair alone, so it is not painted in the clothes' colours). */
const HAIR_TONES = 3;
const SKIN_PALE = [255, 228, 212];
/** The shadow cel's tone: darker and a little cooler (multiplied into the colour). */
const SHADOW = [0.72, 0.7, 0.84];

/** The head around a face: an ellipse larger than the face oval, for the hair's highlight. */
function headOf(face: Face) {
  const [left, top, right, bottom] = ovalBounds(face);
  return {
    cx: (left + right) / 2,
    cy: (top + bottom) / 2,
    rx: ((right - left) / 2) * 1.45,
    ry: ((bottom - top) / 2) * 1.35,
  };
}

/**
 * The hair around each head (outside the face oval, within the mask, down to
 * the eyes' level) and the highlight band across its top, a jagged ring whose
 * width follows the strands: two 0-1 planes.
 */
function hairOf(width: number, height: number, faces: Face[], mask: Plane, face: Plane) {
  const hair = newPlane(width, height);
  const ring = newPlane(width, height);
  for (const head of faces.map(headOf)) {
    const left = Math.max(0, Math.floor(head.cx - head.rx * 1.25));
    const right = Math.min(width - 1, Math.ceil(head.cx + head.rx * 1.25));
    const top = Math.max(0, Math.floor(head.cy - head.ry * 1.25));
    const bottom = Math.min(height - 1, Math.ceil(head.cy + head.ry * 0.35));
    for (let y = top; y <= bottom; y++) {
      for (let x = left, k = y * width + left; x <= right; x++, k++) {
        const u = (x + 0.5 - head.cx) / head.rx;
        const v = (y + 0.5 - head.cy) / head.ry;
        const r = Math.hypot(u, v);
        const outside = smoothstep(0.3, 0.6, mask.data[k]) * (1 - face.data[k]);
        const h = (1 - smoothstep(1.05, 1.25, r)) * (1 - smoothstep(0.15, 0.35, v)) * outside;
        const strands = 0.35 + 0.65 * Math.abs(Math.sin(Math.atan2(v, u) * 13));
        const across = Math.abs(r - 0.9) / (0.055 * strands);
        const band = (1 - smoothstep(0.7, 1, across)) * smoothstep(-0.2, -0.45, v) * outside;
        hair.data[k] = Math.max(hair.data[k], h);
        ring.data[k] = Math.max(ring.data[k], band);
      }
    }
  }
  return { hair, ring };
}

export const renderAnime: StyleRender = async (scene) => {
  const { width, height, long, mask, outlined, picture, parts } = toon.drawnScene(scene);
  const random = seededRandom(scene.rgb);
  const [paint, clouds, silhouette, face, brows, lips] = await toon.inTurn([
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
    () => blurred(parts.brows, Math.max(0.5, long / 1000)),
    () => blurred(parts.lips, Math.max(0.5, long / 900)),
  ] as const);
  const grey = toon.greyOf(paint);
  const palette = toon.paletteWithin(paint, mask, PALETTE_SIZE);
  const hasFace = scene.faces.length > 0;
  const hairs = hasFace ? hairOf(width, height, scene.faces, mask, face) : null;
  const hair = hairs?.hair ?? face;
  const [flat, softFlat, lines, faceLines, surround, light] = await toon.inTurn([
    () => toon.quantised(paint, palette, long / 140),
    // The hair's colours from a softer copy: broad bands instead of speckles.
    () =>
      hasFace
        ? wideBlurRgb(paint, Math.max(2, long / 110)).then((soft) =>
            toon.quantised(soft, toon.paletteWithin(soft, hair, HAIR_TONES), 3),
          )
        : Promise.resolve(null),
    // Thin lines: a fine difference of Gaussians, not thickened.
    () => toon.inkLines(grey, Math.max(0.7, long / 900), 4.5, 0),
    // The face's lines from the photo itself, only the strong ones (glasses, nose, mouth).
    () =>
      hasFace ? toon.inkLines(scene.luma, Math.max(0.7, long / 800), 9, 0) : Promise.resolve(null),
    // The light around each pixel, for its cel: the paint's brightness broadly blurred.
    () => blurRgb(paint, Math.max(3, long / 45)).then(toon.greyOf),
    // The broad light on the face, for the skin's one shadow cel.
    () => wideBlurRgb(paint, Math.max(1, long / 160)).then(toon.greyOf),
  ] as const);

  // The skin: the oval's paint without the eyes, brows and lips, made lighter and rosier.
  const { skin, skinLuma } = await toon.faceSkin(paint, scene.faces, parts);
  const skinLight = skin
    ? skin.map((c, n) => {
        const lighter = Math.min(255, (skinLuma + (c - skinLuma) * 1.1) * 1.1 + [10, 2, 0][n]);
        // Towards a pale peach: anime skin is light, not the photo's full tan.
        return lighter + (SKIN_PALE[n] - lighter) * 0.35;
      })
    : [0, 0, 0];
  const skinShadow = skinLight.map((c, n) => c * [0.86, 0.74, 0.8][n]);
  const lipTint = skinLight.map((c, n) => c * [0.95, 0.62, 0.66][n]);
  const browTone = (toon.meanColourWithin(paint, parts.brows) ?? [70, 50, 40]).map((c) => c * 0.5);

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
      const a = mask.data[k];
      const f = face.data[k];
      const inHair = hairs ? hairs.hair.data[k] : 0;
      const ring = hairs ? hairs.ring.data[k] : 0;
      // The flat colour: the softer copy's in the hair.
      for (let c = 0; c < 3; c++) {
        cel[c] = softFlat
          ? flat.data[i + c] + (softFlat.data[i + c] - flat.data[i + c]) * inHair
          : flat.data[i + c];
      }
      const fl = 0.299 * cel[0] + 0.587 * cel[1] + 0.114 * cel[2];
      // Cels: the flat colour in its shadow, lit or highlight tone, by the light around it.
      const l = grey.data[k];
      const rel = l / Math.max(0.04, surround.data[k]);
      const lit = smoothstep(0.9, 0.93, rel);
      const high = 0.22 * smoothstep(1.1, 1.13, rel) * smoothstep(0.45, 0.6, l);
      for (let c = 0; c < 3; c++) {
        const base = fl + (cel[c] - fl) * 1.2;
        cel[c] = base * (SHADOW[c] + (1 - SHADOW[c]) * lit) * (1 + high);
        // The hair's highlight: the hair's own colour made much lighter.
        cel[c] += (Math.min(255, base * 1.25 + 70) - cel[c]) * ring * 0.85;
      }
      if (skin && f > 0) {
        // The face: two-tone skin (one hard-edged shadow from the broad light), brows and lips tinted.
        const shade = smoothstep(0.835, 0.845, (light.data[k] * 255) / skinLuma);
        for (let c = 0; c < 3; c++) {
          let colour = skinShadow[c] + (skinLight[c] - skinShadow[c]) * shade;
          colour += (browTone[c] - colour) * brows.data[k] * 0.85;
          colour += (lipTint[c] - colour) * lips.data[k] * 0.8;
          cel[c] += (colour - cel[c]) * f;
        }
      }
      // On the face the lines are crisp (inked or not), so the skin stays in its two tones.
      const drawn = faceLines
        ? lines.data[k] + (smoothstep(0.45, 0.55, faceLines.data[k]) - lines.data[k]) * f
        : lines.data[k];
      const line = Math.max(
        drawn * smoothstep(0.6, 0.95, a) * 0.9,
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

  // The eyes and blush, drawn from the landmarks over the face.
  drawAnimeEyes(out, picture, scene.faces);
  return { image: out };
};
