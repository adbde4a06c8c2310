import { seededRandom } from "~/engines/styling/seeded-random.server";
import {
  drawDisc,
  lumaAt,
  newRgb,
  smoothNoise,
  smoothRgb,
} from "~/engines/styling/styles/compose.server";
import type { StyleRender } from "~/engines/styling/styles/style-render.server";
import {
  fillPolygon,
  LEFT_EYE,
  pointsOf,
  RIGHT_EYE,
} from "~/engines/styling/vision/face-regions.server";
import { blurred, newPlane, smoothstep } from "~/engines/styling/vision/planes.server";

/**
 * Anime: the person cel-shaded (smoothed colour, brightness in three flat
 * bands with thin soft steps, livelier colour) with fine warm-brown line art
 * on the person only, over a painted sky: a blue-to-peach gradient with soft
 * clouds from seeded noise. The eyes are brightened inside the iris and get
 * two catchlights, placed from the iris landmarks.
 */

const SKY_TOP = [58, 112, 206];
const SKY_MIDDLE = [132, 190, 240];
const SKY_LOW = [255, 218, 196];
const LINE = [62, 36, 40];

export const renderAnime: StyleRender = async (scene) => {
  const { width, height } = scene;
  // Without a clear person the whole picture is drawn in the style, with no silhouette line.
  const mask = scene.subject === "centre" ? newPlane(width, height, 1) : scene.mask;
  const outlined = scene.subject === "person";
  const long = Math.max(width, height);
  const random = seededRandom(scene.rgb);
  const picture = { data: scene.rgb, width, height };
  const [smooth, clouds, silhouette] = await Promise.all([
    smoothRgb(picture, Math.max(1.5, long / 220), 34).then((once) =>
      smoothRgb(once, Math.max(1.5, long / 220), 34),
    ),
    smoothNoise(width, height, random, 4, 4),
    blurred(mask, Math.max(0.8, long / 600)),
  ]);
  const grey = newPlane(width, height);
  for (let k = 0, i = 0; k < grey.data.length; k++, i += 3)
    grey.data[k] = lumaAt(smooth.data, i) / 255;
  const sigma = Math.max(0.7, long / 900);
  const [fine, coarse] = await Promise.all([blurred(grey, sigma), blurred(grey, sigma * 1.7)]);

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
      // Cel shading: brightness in three bands, hue and colour from the smoothed picture.
      const l = lumaAt(smooth.data, i);
      // Shadows keep their own depth; mid-tones, lights and highlights each become one flat tone.
      const shadow = 0.7 * l + 6;
      const tone =
        shadow +
        (128 - shadow) * smoothstep(66, 76, l) +
        (196 - 128) * smoothstep(150, 160, l) +
        (238 - 196) * smoothstep(218, 228, l);
      const level = tone / Math.max(8, l);
      for (let c = 0; c < 3; c++) {
        const v = smooth.data[i + c];
        cel[c] = (l + (v - l) * 1.12) * level;
      }
      const edge = (coarse.data[k] - fine.data[k]) * 255;
      const a = mask.data[k];
      const line = Math.max(
        smoothstep(2, 5, edge) * smoothstep(0.6, 0.95, a) * 0.85,
        outlined
          ? smoothstep(0.2, 0.35, silhouette.data[k]) *
              (1 - smoothstep(0.65, 0.8, silhouette.data[k])) *
              0.8
          : 0,
      );
      for (let c = 0; c < 3; c++) {
        const back = sky[c] + (255 * cloudShade - sky[c]) * cloud;
        const colour = back + (cel[c] - back) * a;
        o[i + c] = colour + (LINE[c] - colour) * line;
      }
    }
  }

  // Eyes: brighter, more colourful irises with a dark rim, and two catchlights each.
  for (const face of scene.faces) {
    const eyes = newPlane(width, height);
    fillPolygon(eyes, pointsOf(face, LEFT_EYE));
    fillPolygon(eyes, pointsOf(face, RIGHT_EYE));
    const eyeClip = await blurred(eyes, Math.max(0.5, long / 1500));
    for (const iris of face.irises) {
      const r = Math.max(1, iris.radius);
      const left = Math.max(0, Math.floor(iris.x - r - 1));
      const right = Math.min(width - 1, Math.ceil(iris.x + r + 1));
      const top = Math.max(0, Math.floor(iris.y - r - 1));
      const bottom = Math.min(height - 1, Math.ceil(iris.y + r + 1));
      for (let y = top; y <= bottom; y++) {
        for (let x = left; x <= right; x++) {
          const k = y * width + x;
          const d = Math.hypot(x + 0.5 - iris.x, y + 0.5 - iris.y) / r;
          const inside = (1 - smoothstep(0.9, 1.05, d)) * eyeClip.data[k];
          if (inside <= 0) continue;
          const i = k * 3;
          const l = lumaAt(out.data, i);
          // Lighter towards the bottom of the iris, a dark rim at its edge.
          const lift = 1.25 + 0.35 * smoothstep(-0.2, 0.8, (y + 0.5 - iris.y) / r);
          const rim = smoothstep(0.7, 0.95, d) * 0.6;
          for (let c = 0; c < 3; c++) {
            const v = out.data[i + c];
            const lively = (l + (v - l) * 1.5) * lift;
            const target = lively * (1 - rim);
            o[i + c] = v + (target - v) * inside;
          }
        }
      }
      drawDisc(out, iris.x - r * 0.35, iris.y - r * 0.38, r * 0.3, [255, 255, 255], 0.95, eyeClip);
      drawDisc(out, iris.x + r * 0.32, iris.y + r * 0.3, r * 0.14, [255, 255, 255], 0.85, eyeClip);
    }
  }
  return { image: out };
};
