import { drawSoftEllipse, drawStroke, type Rgb } from "~/engines/styling/styles/compose.server";
import {
  fillPolygon,
  LEFT_EYE,
  LIPS,
  type Face,
  type Point,
  pointsOf,
  RIGHT_EYE,
} from "~/engines/styling/vision/face-regions.server";
import { newPlane } from "~/engines/styling/vision/planes.server";

/**
 * Anime eyes, drawn from the face landmarks over the cel-shaded face: each
 * eye opened wider than the photo's (taller more than wider), a white, a
 * large iris (half again the photo's) graded from near-black at the top to
 * the person's own iris colour below, a dark pupil, two catchlights, a thick
 * upper lash line with a small flick at the outer corner and a thin lower
 * one; and a flat blush (soft-edged) under each eye.
 */

const EYE_WHITE = [252, 250, 248];
const IRIS_TOP = [24, 16, 28];
const PUPIL = [14, 8, 18];
const LASH = [40, 22, 28];
const BLUSH = [240, 128, 140];
/** The iris colour when the photo's has too little colour of its own (a grey picture). */
const IRIS_FALLBACK = [120, 78, 60];

/** The mesh's eye contours start at the outer corner; their first nine points are the upper lid. */
const UPPER_LID = 9;

/** The eye's contour opened about its corners' midpoint: the upper lid raised more than the lower lowered. */
function openedEye(points: Point[]): { points: Point[]; cx: number; cy: number } {
  const cx = (points[0][0] + points[8][0]) / 2;
  const cy = (points[0][1] + points[8][1]) / 2;
  const opened = points.map(([x, y], n): Point => {
    const lift = n < UPPER_LID ? 2 : 1.4;
    return [cx + (x - cx) * 1.18, cy + (y - cy) * lift];
  });
  return { points: opened, cx, cy };
}

/** The mean colour of the photo within a disc (null where it has little colour of its own). */
function irisColour(photo: Rgb, x: number, y: number, radius: number): number[] | null {
  const sum = [0, 0, 0];
  let n = 0;
  for (
    let py = Math.max(0, Math.floor(y - radius));
    py <= Math.min(photo.height - 1, y + radius);
    py++
  ) {
    for (
      let px = Math.max(0, Math.floor(x - radius));
      px <= Math.min(photo.width - 1, x + radius);
      px++
    ) {
      if (Math.hypot(px + 0.5 - x, py + 0.5 - y) > radius) continue;
      const i = (py * photo.width + px) * 3;
      for (let c = 0; c < 3; c++) sum[c] += photo.data[i + c];
      n++;
    }
  }
  if (n === 0) return null;
  const mean = sum.map((v) => v / n);
  const chroma = Math.max(...mean) - Math.min(...mean);
  return chroma < 14 ? null : mean;
}

/** One eye drawn into `out`, its shape from `contour`, its iris from the landmarks (or the eye's middle). */
function drawEye(
  out: Rgb,
  photo: Rgb,
  contour: Point[],
  iris: { x: number; y: number; radius: number } | undefined,
) {
  const { points, cx, cy } = openedEye(contour);
  const eyeWidth = Math.hypot(points[8][0] - points[0][0], points[8][1] - points[0][1]);
  if (eyeWidth < 4) return;
  const xs = points.map(([x]) => x);
  const ys = points.map(([, y]) => y);
  const left = Math.max(0, Math.floor(Math.min(...xs)) - 1);
  const top = Math.max(0, Math.floor(Math.min(...ys)) - 1);
  const right = Math.min(out.width - 1, Math.ceil(Math.max(...xs)) + 1);
  const bottom = Math.min(out.height - 1, Math.ceil(Math.max(...ys)) + 1);
  if (right <= left || bottom <= top) return;
  // The eye's shape, filled at three times the resolution for smooth edges.
  const fine = 3;
  const boxWidth = right - left + 1;
  const boxHeight = bottom - top + 1;
  const shape = newPlane(boxWidth * fine, boxHeight * fine);
  fillPolygon(
    shape,
    points.map(([x, y]): Point => [(x - left) * fine, (y - top) * fine]),
  );
  const eyeHeight = Math.max(...ys) - Math.min(...ys);
  const ix = iris?.x ?? cx;
  const iy = iris?.y ?? cy;
  const radius = Math.max(iris ? iris.radius * 1.6 : 0, Math.min(eyeWidth * 0.3, eyeHeight * 0.62));
  const own = iris ? irisColour(photo, iris.x, iris.y, iris.radius * 0.7) : null;
  const base = own
    ? (() => {
        const y = 0.299 * own[0] + 0.587 * own[1] + 0.114 * own[2];
        // The iris's own hue, more vivid, at a middle brightness.
        return own.map((c) => Math.min(235, Math.max(20, 105 + (c - y) * 2.2)));
      })()
    : IRIS_FALLBACK;
  for (let y = top; y <= bottom; y++) {
    for (let x = left; x <= right; x++) {
      let cover = 0;
      for (let sy = 0; sy < fine; sy++) {
        const row = ((y - top) * fine + sy) * shape.width + (x - left) * fine;
        for (let sx = 0; sx < fine; sx++) cover += shape.data[row + sx];
      }
      cover /= fine * fine;
      if (cover <= 0) continue;
      const d = Math.hypot(x + 0.5 - ix, y + 0.5 - iy) / radius;
      let colour = EYE_WHITE;
      if (d < 1.04) {
        // Dark at the top, the person's colour below, a darker ring at the rim, the pupil.
        const t = Math.min(1, Math.max(0, (y + 0.5 - (iy - radius)) / (2 * radius)));
        // Cel-shaded like the rest: a hard step from the dark top to the lighter lower half.
        const lit = Math.min(1, Math.max(0, (t - 0.5) / 0.06));
        const ring = Math.min(1, Math.max(0, (d - 0.78) / 0.18));
        const pupil = Math.min(1, Math.max(0, (0.46 - d) / 0.06));
        const iris = IRIS_TOP.map((c, n) => c + (base[n] - c) * lit * 0.9);
        const ringed = iris.map((c, n) => c + (IRIS_TOP[n] - c) * ring * 0.8);
        const withPupil = ringed.map((c, n) => c + (PUPIL[n] - c) * pupil * 0.9);
        const edge = Math.min(1, Math.max(0, (1.04 - d) * radius));
        colour = EYE_WHITE.map((c, n) => c + (withPupil[n] - c) * edge);
      }
      const i = (y * out.width + x) * 3;
      for (let c = 0; c < 3; c++) out.data[i + c] += (colour[c] - out.data[i + c]) * cover;
    }
  }
  // Catchlights: a big one up on the light's side, a small one down on the other.
  drawSoftEllipse(
    out,
    ix - radius * 0.32,
    iy - radius * 0.34,
    radius * 0.36,
    radius * 0.3,
    [255, 255, 255],
    1.6,
  );
  drawSoftEllipse(
    out,
    ix + radius * 0.36,
    iy + radius * 0.36,
    radius * 0.16,
    radius * 0.14,
    [255, 255, 255],
    1.4,
  );
  // Lashes: thick along the upper lid, thickest at the outer corner, with a flick outwards; a thin lower line.
  const lash = Math.max(1.5, eyeHeight * 0.2);
  const upper = points.slice(0, UPPER_LID);
  const outward: Point = [
    points[0][0] + (points[0][0] - points[2][0]) * 0.35,
    points[0][1] + (points[0][1] - points[2][1]) * 0.35 - eyeHeight * 0.12,
  ];
  const lid = [outward, ...upper];
  drawStroke(
    out,
    lid,
    lid.map((_, n) => lash * (n === 0 ? 0.35 : 1.25 - (0.75 * n) / UPPER_LID)),
    LASH,
    1,
  );
  const lower = [...points.slice(UPPER_LID - 1), points[0]];
  drawStroke(
    out,
    lower,
    lower.map(() => Math.max(1, lash * 0.3)),
    LASH,
    0.55,
  );
}

/** The anime eyes and blush of every face, drawn into `out`. */
export function drawAnimeEyes(out: Rgb, photo: Rgb, faces: Face[]) {
  for (const face of faces) {
    const contours = [pointsOf(face, LEFT_EYE), pointsOf(face, RIGHT_EYE)];
    const [leftCorner, rightCorner] = [pointsOf(face, LIPS)[0], pointsOf(face, LIPS)[10]];
    contours.forEach((contour, n) => {
      // The iris nearest this eye's middle (the landmarks' order is not relied on).
      const mx = (contour[0][0] + contour[8][0]) / 2;
      const my = (contour[0][1] + contour[8][1]) / 2;
      const iris = [...face.irises].sort(
        (a, b) => Math.hypot(a.x - mx, a.y - my) - Math.hypot(b.x - mx, b.y - my),
      )[0];
      const eyeWidth = Math.hypot(contour[8][0] - contour[0][0], contour[8][1] - contour[0][1]);
      const near = iris && Math.hypot(iris.x - mx, iris.y - my) < eyeWidth ? iris : undefined;
      // Blush: under the eye, towards the mouth's corner on its side.
      const corner = n === 0 ? leftCorner : rightCorner;
      const bx = mx + (corner[0] - mx) * 0.35 + (contour[0][0] - mx) * 0.3;
      const by = my + (corner[1] - my) * 0.45;
      drawSoftEllipse(out, bx, by, eyeWidth * 0.6, eyeWidth * 0.3, BLUSH, 0.3, 0.15);
      drawEye(out, photo, contour, near);
    });
  }
}
