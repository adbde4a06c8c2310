import sharp from "sharp";
import { decoding, openInput } from "~/engines/styling/raw-image.server";
import type { Face } from "~/engines/styling/vision/face-regions.server";
import { newPlane, type Plane } from "~/engines/styling/vision/planes.server";
import {
  ellipseMask,
  looksLikePerson,
  lumaPlane,
  refineMask,
} from "~/engines/styling/vision/refine-mask.server";
import { askVision, type FoundFace } from "~/engines/styling/vision/vision-client.server";

/**
 * What every composed style starts from: the picture's RGB pixels, the person
 * mask at full size, the faces with their landmarks (in picture pixels), and
 * which kind of subject was found. With no person the subject is a soft
 * centre-weighted ellipse (around the face if one was found without a body),
 * so every style still has a subject and a background to work with.
 */
export const SEGMENT_SIZE = 256;
/** The face models see each window with its short side at most this (the mesh crops its faces from it). */
const FACE_SHORT = 512;
/** Faces smaller than this share of the picture's short side are ignored (noise, posters in the back). */
const MIN_FACE = 0.06;

export interface Scene {
  rgb: Buffer;
  width: number;
  height: number;
  luma: Plane;
  /** 0-1, the subject. */
  mask: Plane;
  subject: "person" | "face" | "centre";
  faces: Face[];
}

/** Decodes the input upright to sRGB (transparency onto white), long edge at most `maxEdge`, never enlarged. */
export function decodePicture(
  input: Buffer,
  maxEdge: number,
): Promise<{
  rgb: Buffer;
  width: number;
  height: number;
  inputWidth: number;
  inputHeight: number;
}> {
  return decoding(async () => {
    const meta = await sharp(input, { failOn: "error" }).metadata();
    const rotated = (meta.orientation ?? 1) >= 5;
    const inputWidth = (rotated ? meta.height : meta.width) ?? 0;
    const inputHeight = (rotated ? meta.width : meta.height) ?? 0;
    const { data, info } = await openInput(input)
      .resize(maxEdge, maxEdge, { fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .toColourspace("srgb")
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { rgb: data, width: info.width, height: info.height, inputWidth, inputHeight };
  });
}

function toFace(found: FoundFace, scale: number, left: number, top: number): Face {
  const mesh = found.mesh.map(([x, y]): [number, number] => [x * scale + left, y * scale + top]);
  const iris = found.iris.map(([x, y]): [number, number] => [x * scale + left, y * scale + top]);
  const irises = [];
  for (let eye = 0; eye + 4 < iris.length; eye += 5) {
    const [cx, cy] = iris[eye];
    let radius = 0;
    for (let k = 1; k <= 4; k++) radius += Math.hypot(iris[eye + k][0] - cx, iris[eye + k][1] - cy);
    irises.push({ x: cx, y: cy, radius: radius / 4 });
  }
  const [x, y, w, h] = found.box;
  return { box: [x * scale + left, y * scale + top, w * scale, h * scale], mesh, irises };
}

/** The faces in one window of the picture, in picture pixels. */
async function facesIn(
  rgb: Buffer,
  width: number,
  height: number,
  window: { left: number; top: number; width: number; height: number },
): Promise<Face[]> {
  const scale = Math.min(1, FACE_SHORT / Math.min(window.width, window.height));
  const faceWidth = Math.max(1, Math.round(window.width * scale));
  const faceHeight = Math.max(1, Math.round(window.height * scale));
  const whole = window.width === width && window.height === height;
  const image =
    whole && scale === 1
      ? rgb
      : await sharp(rgb, { raw: { width, height, channels: 3 } })
          .extract(window)
          .resize(faceWidth, faceHeight, { fit: "fill" })
          .raw()
          .toBuffer();
  const found = await askVision({ face: { data: image, width: faceWidth, height: faceHeight } });
  return found.faces.map((face) => toFace(face, 1 / scale, window.left, window.top));
}

/**
 * The faces in the picture. The detector sees its input at 256 px, so a
 * very wide picture is searched in overlapping square windows (a face that
 * is small in the whole stays big enough in its window).
 */
async function findFaces(rgb: Buffer, width: number, height: number): Promise<Face[]> {
  const minSide = MIN_FACE * Math.min(width, height);
  const windows = [];
  if (width <= height * 1.3) {
    windows.push({ left: 0, top: 0, width, height });
  } else {
    const side = height;
    const step = Math.round(side * 0.66);
    for (let left = 0; ; left += step) {
      const at = Math.min(left, width - side);
      windows.push({ left: at, top: 0, width: side, height: side });
      if (at === width - side) break;
    }
  }
  const faces: Face[] = [];
  for (const window of windows) {
    for (const face of await facesIn(rgb, width, height, window)) {
      if (Math.max(face.box[2], face.box[3]) < minSide) continue;
      const [x, y, w, h] = face.box;
      const seen = faces.some(
        ({ box: [ox, oy, ow, oh] }) =>
          Math.abs(ox + ow / 2 - (x + w / 2)) < ow / 2 &&
          Math.abs(oy + oh / 2 - (y + h / 2)) < oh / 2,
      );
      if (!seen) faces.push(face);
    }
  }
  // The biggest face first: the styles frame and light the main one.
  return faces.sort((a, b) => b.box[2] * b.box[3] - a.box[2] * a.box[3]);
}

/**
 * The square window the segmentation model looks at: the whole picture when
 * it is about square or tall (letterboxed), else a square of the short side
 * across the face (or the middle): the model is made for selfie framing and
 * loses a small person in a wide letterbox.
 */
function segmentWindow(width: number, height: number, faces: Face[]) {
  if (width <= height * 1.3) return { left: 0, top: 0, width, height };
  const side = height;
  const centre = faces[0] ? faces[0].box[0] + faces[0].box[2] / 2 : width / 2;
  const left = Math.round(Math.min(width - side, Math.max(0, centre - side / 2)));
  return { left, top: 0, width: side, height: side };
}

/** The picture's pixels with the models' view of it (see Scene). */
export async function sceneOf(rgb: Buffer, width: number, height: number): Promise<Scene> {
  const raw = { raw: { width, height, channels: 3 as const } };
  const luma = lumaPlane(rgb, width, height);
  // Pictures too small for the models are not worth asking about.
  if (Math.min(width, height) < 32) return fallbackScene(rgb, width, height, luma, []);

  const faces = await findFaces(rgb, width, height);

  // The segmentation model sees its window letterboxed into its square input (mid grey
  // around it), so the window keeps its proportions.
  const window = segmentWindow(width, height, faces);
  const fit = SEGMENT_SIZE / Math.max(window.width, window.height);
  const segWidth = Math.max(1, Math.round(window.width * fit));
  const segHeight = Math.max(1, Math.round(window.height * fit));
  const segLeft = (SEGMENT_SIZE - segWidth) >> 1;
  const segTop = (SEGMENT_SIZE - segHeight) >> 1;
  const segment = await sharp(rgb, raw)
    .extract(window)
    .resize(segWidth, segHeight, { fit: "fill" })
    .extend({
      left: segLeft,
      right: SEGMENT_SIZE - segWidth - segLeft,
      top: segTop,
      bottom: SEGMENT_SIZE - segHeight - segTop,
      background: { r: 128, g: 128, b: 128 },
    })
    .raw()
    .toBuffer();
  const answer = await askVision({
    segment: { data: segment, width: SEGMENT_SIZE, height: SEGMENT_SIZE },
  });
  const modelMask = new Uint8Array(segWidth * segHeight);
  for (let y = 0; y < segHeight; y++) {
    const from = (segTop + y) * SEGMENT_SIZE + segLeft;
    modelMask.set(answer.mask.subarray(from, from + segWidth), y * segWidth);
  }
  // Without a face, the mask is believed only when it is clear-cut (see looksLikePerson).
  if (faces.length === 0 && !looksLikePerson(modelMask)) {
    return fallbackScene(rgb, width, height, luma, faces);
  }
  const windowLuma =
    window.width === width
      ? luma
      : lumaPlane(
          await sharp(rgb, raw).extract(window).raw().toBuffer(),
          window.width,
          window.height,
        );
  const windowMask = await refineMask(modelMask, segWidth, segHeight, windowLuma);
  if (!windowMask) return fallbackScene(rgb, width, height, luma, faces);
  let mask = windowMask;
  if (window.width !== width) {
    mask = newPlane(width, height);
    for (let y = 0; y < window.height; y++) {
      mask.data.set(
        windowMask.data.subarray(y * window.width, (y + 1) * window.width),
        (window.top + y) * width + window.left,
      );
    }
  }
  return { rgb, width, height, luma, mask, subject: "person", faces };
}

/** A scene without a person mask: a soft ellipse around the face, or in the middle. */
function fallbackScene(
  rgb: Buffer,
  width: number,
  height: number,
  luma: Plane,
  faces: Face[],
): Scene {
  if (faces.length > 0) {
    const [x, y, w, h] = faces[0].box;
    const ellipse = ellipseMask(width, height, x + w / 2, y + h * 0.9, w * 1.3, h * 1.6, 0.5);
    return { rgb, width, height, luma, mask: ellipse, subject: "face", faces };
  }
  const centre =
    width > 1 && height > 1
      ? ellipseMask(width, height, width / 2, height * 0.55, width * 0.42, height * 0.48, 0.6)
      : newPlane(width, height, 1);
  return { rgb, width, height, luma, mask: centre, subject: "centre", faces };
}
