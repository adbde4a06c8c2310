import sharp from "sharp";
import {
  medianCutPalette,
  nearestColourTable,
  nearestEntry,
  type Palette,
  UNKNOWN_ENTRY,
} from "~/engines/styling/palette.server";
import { lumaAt, newRgb, smoothRgb, type Rgb } from "~/engines/styling/styles/compose.server";
import type { Face } from "~/engines/styling/vision/face-regions.server";
import {
  fillPolygon,
  ovalPlane,
  LEFT_BROW,
  LEFT_EYE,
  LIPS,
  pointsOf,
  RIGHT_BROW,
  RIGHT_EYE,
} from "~/engines/styling/vision/face-regions.server";
import { blurred, newPlane, smoothstep, type Plane } from "~/engines/styling/vision/planes.server";
import type { Scene } from "~/engines/styling/vision/scene.server";

/**
 * The drawn styles' shared passes (cartoon and anime): flattening a photo
 * into paint (median filters and edge-preserving smoothing), quantising it to
 * a few colours with the speckles cleaned away, ink lines from a difference
 * of Gaussians made as thick as asked, and the parts of a face (eyes, brows,
 * lips) as planes, so the face is drawn in the style like the rest.
 */

/**
 * Runs the passes one after another (not side by side): libvips passes run
 * together spread their buffers over more of the allocator's arenas, which
 * the process keeps after the work is done (a resident memory cost with no
 * gain in CPU time, which is what the limits count).
 */
export async function inTurn<T extends readonly unknown[]>(passes: {
  [K in keyof T]: () => Promise<T[K]> | T[K];
}): Promise<T> {
  const results: unknown[] = [];
  for (const pass of passes) results.push(await pass());
  return results as unknown as T;
}

/** The nearest odd whole number at least 3 (median filter sizes). */
export function oddSize(size: number): number {
  const whole = Math.max(3, Math.round(size));
  return whole % 2 === 1 ? whole : whole + 1;
}

/** Each channel's median over a `size` square (libvips). */
export async function medianRgb(image: Rgb, size: number): Promise<Rgb> {
  const data = await sharp(image.data, {
    raw: { width: image.width, height: image.height, channels: 3 },
  })
    .median(oddSize(size))
    .raw()
    .toBuffer();
  return { ...image, data };
}

/** The long edge the paint is made at, at most: paint has no fine detail to lose, and a big median is dear. */
export const PAINT_EDGE = 1280;

/**
 * A photo flattened into paint: a median pass (removes texture: pores,
 * wrinkles, fabric) and `passes` rounds of edge-preserving smoothing, sized
 * for the picture's long edge (`median` and `sigma` in its pixels). A picture
 * longer than PAINT_EDGE is painted at that size and enlarged again.
 */
export async function paintOf(
  picture: Rgb,
  options: { median: number; sigma: number; keep: number; passes: number },
): Promise<Rgb> {
  const { width, height } = picture;
  const scale = Math.min(1, PAINT_EDGE / Math.max(width, height));
  let paint = picture;
  if (scale < 1) {
    const smallWidth = Math.max(1, Math.round(width * scale));
    const smallHeight = Math.max(1, Math.round(height * scale));
    const data = await sharp(picture.data, { raw: { width, height, channels: 3 } })
      .resize(smallWidth, smallHeight, { fit: "fill" })
      .raw()
      .toBuffer();
    paint = { data, width: smallWidth, height: smallHeight };
  }
  paint = await medianRgb(paint, options.median * scale);
  for (let pass = 0; pass < options.passes; pass++) {
    paint = await smoothRgb(paint, Math.max(1, options.sigma * scale), options.keep);
  }
  if (scale === 1) return paint;
  const data = await sharp(paint.data, {
    raw: { width: paint.width, height: paint.height, channels: 3 },
  })
    .resize(width, height, { fit: "fill", kernel: "cubic" })
    .raw()
    .toBuffer();
  return { data, width, height };
}

/** The palette of the pixels where `mask` is at least a half (all pixels when too few are). */
export function paletteWithin(image: Rgb, mask: Plane, size: number): Palette {
  const sampled = Buffer.alloc(image.data.length);
  let kept = 0;
  for (let k = 0, i = 0; k < mask.data.length; k++, i += 3) {
    if (mask.data[k] < 0.5) continue;
    sampled[kept * 3] = image.data[i];
    sampled[kept * 3 + 1] = image.data[i + 1];
    sampled[kept * 3 + 2] = image.data[i + 2];
    kept++;
  }
  return kept >= 64
    ? medianCutPalette(
        { data: sampled.subarray(0, kept * 3), width: kept, height: 1, channels: 3 },
        size,
      )
    : medianCutPalette({ ...image, channels: 3 }, size);
}

/**
 * Every pixel replaced by its nearest palette colour, then a median pass
 * (`clean` pixels) that removes the speckles where two colours meet: flat
 * regions with clean borders.
 */
export async function quantised(image: Rgb, palette: Palette, clean: number): Promise<Rgb> {
  // The clean-up's size is capped: past it a median costs much and changes little.
  clean = Math.min(clean, 9);
  const out = newRgb(image.width, image.height);
  const table = nearestColourTable();
  const s = image.data;
  for (let i = 0; i < s.length; i += 3) {
    const index = ((s[i] >> 3) << 10) | ((s[i + 1] >> 3) << 5) | (s[i + 2] >> 3);
    let entry = table[index];
    if (entry === UNKNOWN_ENTRY) entry = nearestEntry(palette, table, index);
    out.data[i] = palette[entry * 3];
    out.data[i + 1] = palette[entry * 3 + 1];
    out.data[i + 2] = palette[entry * 3 + 2];
  }
  return medianRgb(out, clean);
}

/** The brightness of RGB pixels as a 0-1 plane. */
export function greyOf(image: Rgb): Plane {
  const grey = newPlane(image.width, image.height);
  for (let k = 0, i = 0; k < grey.data.length; k++, i += 3) {
    grey.data[k] = lumaAt(image.data, i) / 255;
  }
  return grey;
}

/**
 * Ink lines, 0-1: where the brightness is darker than its surroundings by
 * a difference of Gaussians (`sigma` and 1.6 times it) above `threshold`
 * (0-255), thickened by `weight` pixels (0: as found).
 */
export async function inkLines(
  grey: Plane,
  sigma: number,
  threshold: number,
  weight: number,
): Promise<Plane> {
  const [fine, coarse] = await inTurn([
    () => blurred(grey, sigma),
    () => blurred(grey, sigma * 1.6),
  ] as const);
  const lines = newPlane(grey.width, grey.height);
  for (let k = 0; k < lines.data.length; k++) {
    const edge = (coarse.data[k] - fine.data[k]) * 255;
    lines.data[k] = smoothstep(threshold, threshold * 1.8, edge);
  }
  if (weight < 0.3) return lines;
  // Spread each line by `weight` and cut it again: bolder strokes with clean ends.
  const spread = await blurred(lines, weight);
  for (let k = 0; k < lines.data.length; k++) {
    lines.data[k] = Math.max(lines.data[k], smoothstep(0.12, 0.3, spread.data[k]));
  }
  return lines;
}

/** The parts of the faces as planes: eyes, brows and lips (0 or 1). */
export function faceParts(width: number, height: number, faces: Face[]) {
  const eyes = newPlane(width, height);
  const brows = newPlane(width, height);
  const lips = newPlane(width, height);
  for (const face of faces) {
    fillPolygon(eyes, pointsOf(face, LEFT_EYE));
    fillPolygon(eyes, pointsOf(face, RIGHT_EYE));
    fillPolygon(brows, pointsOf(face, LEFT_BROW));
    fillPolygon(brows, pointsOf(face, RIGHT_BROW));
    fillPolygon(lips, pointsOf(face, LIPS));
  }
  return { eyes, brows, lips };
}

/** The mean colour of `image` where `where` is set and `unless` is not (null when nowhere). */
export function meanColourWithin(image: Rgb, where: Plane, unless?: Plane): number[] | null {
  let r = 0;
  let g = 0;
  let b = 0;
  let n = 0;
  for (let k = 0, i = 0; k < where.data.length; k++, i += 3) {
    const w = where.data[k] * (unless ? 1 - unless.data[k] : 1);
    if (w < 0.5) continue;
    r += image.data[i];
    g += image.data[i + 1];
    b += image.data[i + 2];
    n++;
  }
  return n > 0 ? [r / n, g / n, b / n] : null;
}

/**
 * The skin's colour: the mean of the paint in the core of the face ovals
 * (well inside the edge, so no hair or background), away from the eyes,
 * brows and lips (`features`); null when there is no such skin.
 */
export async function skinColour(
  paint: Rgb,
  faces: Face[],
  features: Plane,
): Promise<number[] | null> {
  const { width, height } = paint;
  const long = Math.max(width, height);
  const [oval, away] = await inTurn([
    () => blurred(ovalPlane(width, height, faces), Math.max(1, long / 60)),
    () => blurred(features, Math.max(1, long / 200)),
  ] as const);
  const core = newPlane(width, height);
  for (let k = 0; k < core.data.length; k++) core.data[k] = oval.data[k] > 0.85 ? 1 : 0;
  return meanColourWithin(paint, core, away) ?? meanColourWithin(paint, oval, away);
}

/**
 * What both drawn styles start from: the scene's size and long edge, the photo
 * as an image, the face parts, and the mask. Without a clear person the whole
 * picture is drawn in the style (a full mask), with no silhouette line
 * (`outlined` only for a person).
 */
export function drawnScene(scene: Scene) {
  const { width, height } = scene;
  return {
    width,
    height,
    long: Math.max(width, height),
    mask: scene.subject === "centre" ? newPlane(width, height, 1) : scene.mask,
    outlined: scene.subject === "person",
    picture: { data: scene.rgb, width, height },
    hasFace: scene.faces.length > 0,
    parts: faceParts(width, height, scene.faces),
  };
}

/**
 * The skin's colour (skinColour away from the eyes, brows and lips; null
 * without a face) and its luma (1 without one).
 */
export async function faceSkin(
  paint: Rgb,
  faces: Face[],
  parts: ReturnType<typeof faceParts>,
): Promise<{ skin: number[] | null; skinLuma: number }> {
  const features = newPlane(paint.width, paint.height);
  for (let k = 0; k < features.data.length; k++) {
    features.data[k] = Math.min(1, parts.eyes.data[k] + parts.brows.data[k] + parts.lips.data[k]);
  }
  const skin = faces.length > 0 ? await skinColour(paint, faces, features) : null;
  const skinLuma = skin ? 0.299 * skin[0] + 0.587 * skin[1] + 0.114 * skin[2] : 1;
  return { skin, skinLuma };
}
