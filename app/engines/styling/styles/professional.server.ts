import sharp from "sharp";
import { smoothRgb, type Rgb } from "~/engines/styling/styles/compose.server";
import type { StyleRender } from "~/engines/styling/styles/style-render.server";
import { featurePlane, ovalBounds, ovalPlane } from "~/engines/styling/vision/face-regions.server";
import { blurred, smoothstep, type Plane } from "~/engines/styling/vision/planes.server";
import type { Scene } from "~/engines/styling/vision/scene.server";

/**
 * Professional: a studio headshot. The person is cut out by the mask onto a
 * studio backdrop (a soft grey-blue gradient, lighter behind the head, with a
 * subtle vignette), relit (levels from the person alone, a gentle S-curve and
 * a soft key light from the face's side), framed 4:5 head-and-shoulders
 * around the face, and only the skin inside the face oval is smoothed (eyes,
 * brows and lips stay sharp). The frame may reach past the photo's edges: the
 * backdrop fills it. The result is never smaller than the upload's long edge
 * (up to the engine's limit): a crop smaller than that is enlarged with
 * libvips' Lanczos-3 kernel and a light sharpen, and the file says so.
 */

const ASPECT = 0.8;
/** The face oval (chin to forehead) takes this share of the frame's height. */
const FACE_SHARE = 0.33;
const BACKDROP_CENTRE = [176, 180, 186];
const BACKDROP_EDGE = [52, 58, 70];

interface Frame {
  left: number;
  top: number;
  width: number;
  height: number;
  /** Where the light centres: the face, in frame pixels. */
  focusX: number;
  focusY: number;
}

function boundsOf(mask: Plane): [number, number, number, number] | null {
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -1;
  let y1 = -1;
  for (let y = 0, k = 0; y < mask.height; y++) {
    for (let x = 0; x < mask.width; x++, k++) {
      if (mask.data[k] > 0.5) {
        if (x < x0) x0 = x;
        if (x > x1) x1 = x;
        if (y < y0) y0 = y;
        y1 = y;
      }
    }
  }
  return x1 < 0 ? null : [x0, y0, x1 + 1, y1 + 1];
}

/** A frame in whole pixels (at least one each way); the focus stays as given. */
function frameAt(
  left: number,
  top: number,
  width: number,
  height: number,
  focusX: number,
  focusY: number,
): Frame {
  return {
    left: Math.round(left),
    top: Math.round(top),
    width: Math.max(1, Math.round(width)),
    height: Math.max(1, Math.round(height)),
    focusX,
    focusY,
  };
}

/** The 4:5 frame, in picture pixels (it may reach past the left, right and top edges). */
export function headshotFrame(scene: Scene): Frame {
  const { width, height } = scene;
  const face = scene.faces[0];
  if (face) {
    const [fx0, fy0, fx1, fy1] = ovalBounds(face);
    let frameHeight = (fy1 - fy0) / FACE_SHARE;
    let top = fy0 - frameHeight * 0.2;
    // The body must not end above the frame's bottom: the frame stops at the photo's bottom.
    if (top + frameHeight > height) frameHeight = Math.max(fy1 - top, height - top);
    frameHeight = Math.min(frameHeight, height - Math.max(0, top));
    if (top < 0 && frameHeight > height) top = 0;
    const frameWidth = frameHeight * ASPECT;
    const left = (fx0 + fx1) / 2 - frameWidth / 2;
    return frameAt(
      left,
      top,
      frameWidth,
      frameHeight,
      (fx0 + fx1) / 2 - left,
      (fy0 + fy1) / 2 - top,
    );
  }
  const bounds = scene.subject === "person" ? boundsOf(scene.mask) : null;
  if (bounds) {
    const [x0, y0, x1] = bounds;
    const frameWidth = Math.min(width, (x1 - x0) * 1.1, height * ASPECT);
    const frameHeight = frameWidth / ASPECT;
    const top = Math.max(0, Math.min(height - frameHeight, y0 - frameHeight * 0.08));
    const left = (x0 + x1) / 2 - frameWidth / 2;
    return frameAt(left, top, frameWidth, frameHeight, frameWidth / 2, frameHeight * 0.35);
  }
  // No subject found: the biggest 4:5 frame in the middle of the photo.
  const frameHeight = Math.min(height, width / ASPECT);
  const frameWidth = frameHeight * ASPECT;
  const left = (width - frameWidth) / 2;
  const top = (height - frameHeight) / 2;
  return frameAt(left, top, frameWidth, frameHeight, frameWidth / 2, frameHeight * 0.4);
}

/** Auto levels of the person's brightness (0.5% clipped each end) and a gentle S-curve, as a table. */
function toneTable(scene: Scene): Float32Array {
  const histogram = new Uint32Array(256);
  let counted = 0;
  const { rgb, mask } = scene;
  for (let k = 0, i = 0; k < mask.data.length; k += 2, i += 6) {
    if (mask.data[k] < 0.5) continue;
    histogram[Math.round(0.299 * rgb[i] + 0.587 * rgb[i + 1] + 0.114 * rgb[i + 2])]++;
    counted++;
  }
  let low = 0;
  let high = 255;
  if (counted > 0) {
    const clip = counted * 0.005;
    for (let sum = 0; low < 255 && (sum += histogram[low]) < clip;) low++;
    for (let sum = 0; high > 0 && (sum += histogram[high]) < clip;) high--;
  }
  const range = Math.max(48, high - low);
  const table = new Float32Array(256);
  for (let v = 0; v < 256; v++) {
    const t = Math.min(1, Math.max(0, (v - low) / range));
    table[v] = 255 * (t + 0.3 * t * (1 - t) * (2 * t - 1) + 0.04 * Math.sin(Math.PI * t));
  }
  return table;
}

export const renderProfessional: StyleRender = async (scene, target) => {
  const frame = headshotFrame(scene);
  const { width, height } = scene;
  // Skin: the face ovals without eyes, brows and lips, softened at its edges.
  const [skin, features, person] = await Promise.all([
    scene.faces.length > 0
      ? blurred(ovalPlane(width, height, scene.faces), Math.max(1, width / 300))
      : null,
    scene.faces.length > 0
      ? blurred(featurePlane(width, height, scene.faces), Math.max(1.5, width / 250))
      : null,
    Promise.resolve(scene.mask),
  ]);
  const faceWidth = scene.faces[0]
    ? ovalBounds(scene.faces[0])[2] - ovalBounds(scene.faces[0])[0]
    : width / 4;
  const smooth = skin
    ? await smoothRgb({ data: scene.rgb, width, height }, Math.max(1.5, faceWidth / 45), 40)
    : null;
  const tone = toneTable(scene);

  const out: Rgb = {
    data: Buffer.alloc(frame.width * frame.height * 3),
    width: frame.width,
    height: frame.height,
  };
  const o = new Uint8ClampedArray(out.data.buffer, out.data.byteOffset, out.data.length);
  const reach = Math.hypot(frame.width, frame.height) / 2;
  const s = scene.rgb;
  for (let y = 0; y < frame.height; y++) {
    const sy = frame.top + y;
    for (let x = 0; x < frame.width; x++) {
      const sx = frame.left + x;
      const i = (y * frame.width + x) * 3;
      // The backdrop: light behind the head, falling off to the edges, a touch darker at the foot.
      const dx = (x - frame.focusX) / reach;
      const dy = (y - frame.focusY * 0.9) / reach;
      const fall = smoothstep(0, 1.15, Math.sqrt(dx * dx + dy * dy * 0.8));
      const foot = (y / frame.height) * 0.12;
      const shade = Math.min(1, fall + foot);
      let r = BACKDROP_CENTRE[0] + (BACKDROP_EDGE[0] - BACKDROP_CENTRE[0]) * shade;
      let g = BACKDROP_CENTRE[1] + (BACKDROP_EDGE[1] - BACKDROP_CENTRE[1]) * shade;
      let b = BACKDROP_CENTRE[2] + (BACKDROP_EDGE[2] - BACKDROP_CENTRE[2]) * shade;
      if (sx >= 0 && sx < width && sy >= 0 && sy < height) {
        const k = sy * width + sx;
        const a = person.data[k];
        if (a > 0.002) {
          const j = k * 3;
          let pr = s[j];
          let pg = s[j + 1];
          let pb = s[j + 2];
          if (skin && smooth && features) {
            const keep = skin.data[k] * (1 - Math.min(1, features.data[k] * 1.6)) * 0.7;
            pr += (smooth.data[j] - pr) * keep;
            pg += (smooth.data[j + 1] - pg) * keep;
            pb += (smooth.data[j + 2] - pb) * keep;
          }
          // Relit: the tone curve, a soft key light around the face, a touch of warmth.
          const l = 0.299 * pr + 0.587 * pg + 0.114 * pb;
          const lit = tone[Math.max(0, Math.min(255, Math.round(l)))];
          const key = 1.06 - 0.14 * smoothstep(0.1, 0.9, Math.sqrt(dx * dx + dy * dy));
          const gain = ((lit + 1) / (l + 1)) * key;
          pr = pr * gain + 4;
          pg = pg * gain + 1;
          pb = pb * gain - 3;
          r += (pr - r) * a;
          g += (pg - g) * a;
          b += (pb - b) * a;
        }
      }
      // A subtle vignette over the whole frame.
      const vignette =
        1 -
        0.18 *
          smoothstep(0.55, 1.1, Math.hypot(x / frame.width - 0.5, y / frame.height - 0.45) * 1.6);
      o[i] = r * vignette;
      o[i + 1] = g * vignette;
      o[i + 2] = b * vignette;
    }
  }

  // Never smaller than the upload's long edge (up to the limit); never more than the limit.
  const outHeight = Math.max(
    1,
    Math.round(Math.min(target.maxEdge, Math.max(target.inputLongEdge, frame.height))),
  );
  const outWidth = Math.max(1, Math.round(outHeight * ASPECT));
  if (outHeight === frame.height) return { image: out };
  const scale = outHeight / frame.height;
  let pipeline = sharp(out.data, {
    raw: { width: frame.width, height: frame.height, channels: 3 },
  }).resize(outWidth, outHeight, { fit: "fill", kernel: "lanczos3" });
  if (scale > 1) pipeline = pipeline.sharpen({ sigma: 0.7, m1: 0.4, m2: 1.2 });
  const data = await pipeline.raw().toBuffer();
  return {
    image: { data, width: outWidth, height: outHeight },
    ...(scale > 1 ? { native: { width: frame.width, height: frame.height } } : {}),
    method:
      scale > 1
        ? `head-and-shoulders frame enlarged ${scale.toFixed(2)}x with Lanczos-3 and a light sharpen`
        : `head-and-shoulders frame reduced ${scale.toFixed(2)}x with Lanczos-3`,
  };
};
