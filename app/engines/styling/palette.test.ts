import {
  medianCutPalette,
  nearestColourTable,
  nearestEntry,
} from "~/engines/styling/palette.server";
import type { RawImage } from "~/engines/styling/raw-image.server";
import { seededRandom } from "~/engines/styling/seeded-random.server";

/** A raw image of seeded noise (so every test sees the same pixels). */
function noise(width: number, height: number, channels: 1 | 3, seed = "noise"): RawImage {
  const random = seededRandom(Buffer.from(seed));
  const data = Buffer.alloc(width * height * channels);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(random() * 256);
  return { data, width, height, channels };
}

describe("palette", () => {
  it("finds the same palette as a plain median cut", () => {
    const image = noise(120, 90, 3, "palette");
    // The plain version: every box measured on every round, boxes sorted with a stable sort.
    const plain = (size: number) => {
      const stride = Math.max(1, Math.floor((120 * 90) / 2500)) | 1;
      const samples: number[] = [];
      for (let p = 0; p < 120 * 90; p += stride) {
        samples.push(
          (image.data[p * 3] << 16) | (image.data[p * 3 + 1] << 8) | image.data[p * 3 + 2],
        );
      }
      let boxes = [samples];
      while (boxes.length < size) {
        let best = -1;
        let bestRange = 0;
        let bestShift = 0;
        boxes.forEach((box, index) => {
          if (box.length < 2) return;
          for (const shift of [16, 8, 0]) {
            const values = box.map((colour) => (colour >> shift) & 255);
            const range = (Math.max(...values) - Math.min(...values)) * box.length ** 0.5;
            if (range > bestRange) [bestRange, best, bestShift] = [range, index, shift];
          }
        });
        if (best < 0) break;
        const box = [...boxes[best]].sort(
          (a, b) => ((a >> bestShift) & 255) - ((b >> bestShift) & 255),
        );
        boxes = [
          ...boxes.slice(0, best),
          box.slice(0, box.length >> 1),
          box.slice(box.length >> 1),
          ...boxes.slice(best + 1),
        ];
      }
      return boxes.flatMap((box) =>
        [16, 8, 0].map(
          (shift) => box.reduce((sum, colour) => sum + ((colour >> shift) & 255), 0) / box.length,
        ),
      );
    };
    expect([...medianCutPalette(image, 12)]).toEqual(plain(12).map(Math.fround));
  });

  it("looks up the nearest palette colour as a full search would", () => {
    const palette = new Float32Array([
      0, 0, 0, 255, 255, 255, 200, 30, 20, 20, 180, 60, 40, 60, 220,
    ]);
    const table = nearestColourTable();
    for (const index of [0, 1, 1000, 12345, 32767, 31 << 10, 31 << 5, 31]) {
      const [r, g, b] = [(index >> 10) * 8 + 4, ((index >> 5) & 31) * 8 + 4, (index & 31) * 8 + 4];
      let best = 0;
      let bestDistance = Infinity;
      for (let k = 0; k < 5; k++) {
        const distance =
          2 * (r - palette[k * 3]) ** 2 +
          4 * (g - palette[k * 3 + 1]) ** 2 +
          3 * (b - palette[k * 3 + 2]) ** 2;
        if (distance < bestDistance) [bestDistance, best] = [distance, k];
      }
      expect(nearestEntry(palette, table, index)).toBe(best);
      expect(table[index]).toBe(best);
    }
  });
});
