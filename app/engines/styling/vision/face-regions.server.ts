import { newPlane, type Plane } from "~/engines/styling/vision/planes.server";

/**
 * Regions of a face from MediaPipe's 468-point face mesh (the indices are the
 * mesh's published contours), in picture pixels: the face oval, the eyes,
 * brows and lips, and each iris (centre and radius from the iris model's five
 * points per eye). Filled as 0-1 planes by a scanline polygon fill.
 */
export type Point = [number, number];

export const FACE_OVAL = [
  10, 338, 297, 332, 284, 251, 389, 356, 454, 323, 361, 288, 397, 365, 379, 378, 400, 377, 152, 148,
  176, 149, 150, 136, 172, 58, 132, 93, 234, 127, 162, 21, 54, 103, 67, 109,
];
export const LEFT_EYE = [
  33, 246, 161, 160, 159, 158, 157, 173, 133, 155, 154, 153, 145, 144, 163, 7,
];
export const RIGHT_EYE = [
  263, 466, 388, 387, 386, 385, 384, 398, 362, 382, 381, 380, 374, 373, 390, 249,
];
export const LEFT_BROW = [70, 63, 105, 66, 107, 55, 65, 52, 53, 46];
export const RIGHT_BROW = [300, 293, 334, 296, 336, 285, 295, 282, 283, 276];
export const LIPS = [
  61, 185, 40, 39, 37, 0, 267, 269, 270, 409, 291, 375, 321, 405, 314, 17, 84, 181, 91, 146,
];

export interface Face {
  /** The face box, picture pixels: left, top, width, height. */
  box: [number, number, number, number];
  mesh: Point[];
  irises: Array<{ x: number; y: number; radius: number }>;
}

export function pointsOf(face: Face, indices: number[]): Point[] {
  return indices.map((index) => face.mesh[index]);
}

/** The bounding box of the face oval: [left, top, right, bottom]. */
export function ovalBounds(face: Face): [number, number, number, number] {
  const points = pointsOf(face, FACE_OVAL);
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/** Fills a polygon into `plane` with `value` (even-odd scanline fill, sampled at pixel centres). */
export function fillPolygon(plane: Plane, points: Point[], value = 1): void {
  const { width, height } = plane;
  const ys = points.map(([, y]) => y);
  const top = Math.max(0, Math.floor(Math.min(...ys)));
  const bottom = Math.min(height - 1, Math.ceil(Math.max(...ys)));
  const crossings: number[] = [];
  for (let y = top; y <= bottom; y++) {
    const cy = y + 0.5;
    crossings.length = 0;
    for (let i = 0, j = points.length - 1; i < points.length; j = i++) {
      const [xi, yi] = points[i];
      const [xj, yj] = points[j];
      if (yi > cy !== yj > cy) crossings.push(xi + ((cy - yi) / (yj - yi)) * (xj - xi));
    }
    crossings.sort((a, b) => a - b);
    for (let c = 0; c + 1 < crossings.length; c += 2) {
      const from = Math.max(0, Math.ceil(crossings[c] - 0.5));
      const to = Math.min(width - 1, Math.floor(crossings[c + 1] - 0.5));
      for (let x = from, k = y * width + from; x <= to; x++, k++) plane.data[k] = value;
    }
  }
}

/** The face features (eyes, brows, lips) of every face as one plane. */
export function featurePlane(width: number, height: number, faces: Face[]): Plane {
  const plane = newPlane(width, height);
  for (const face of faces) {
    for (const contour of [LEFT_EYE, RIGHT_EYE, LEFT_BROW, RIGHT_BROW, LIPS]) {
      fillPolygon(plane, pointsOf(face, contour));
    }
  }
  return plane;
}

/** The face ovals of every face as one plane. */
export function ovalPlane(width: number, height: number, faces: Face[]): Plane {
  const plane = newPlane(width, height);
  for (const face of faces) fillPolygon(plane, pointsOf(face, FACE_OVAL));
  return plane;
}
