import sharp from "sharp";
import { halfBrightPass, lumaOf } from "~/engines/styling/image-planes.server";
import { inkOver, inkTable } from "~/engines/styling/line-art.server";
import { medianCutPalette, nearestColourTable, nearestEntry } from "~/engines/styling/palette.server";
import { newPackedPlane, wordsOf } from "~/engines/styling/pixel-words.server";
import { decodeRgb, pictureOf, type RawImage } from "~/engines/styling/raw-image.server";
import { seededRandom } from "~/engines/styling/seeded-random.server";

/** A raw image of seeded noise (so every test sees the same pixels). */
function noise(width: number, height: number, channels: 1 | 3, seed = "noise"): RawImage {
  const random = seededRandom(Buffer.from(seed));
  const data = Buffer.alloc(width * height * channels);
  for (let i = 0; i < data.length; i++) data[i] = Math.floor(random() * 256);
  return { data, width, height, channels };
}

const luma = (r: number, g: number, b: number) => (77 * r + 150 * g + 29 * b + 128) >> 8;

describe("pixel passes", () => {
  it("pads decoded rows to whole groups of four pixels and encodes only the picture", async () => {
    const png = await sharp(noise(13, 5, 3).data, { raw: { width: 13, height: 5, channels: 3 } })
      .png()
      .toBuffer();
    const decoded = await decodeRgb(png, 1024);
    expect([decoded.width, decoded.height, decoded.padding]).toEqual([16, 5, 3]);
    const original = await sharp(png).raw().toBuffer();
    for (let y = 0; y < 5; y++) {
      const row = decoded.data.subarray(y * 16 * 3, (y + 1) * 16 * 3);
      expect(row.subarray(0, 13 * 3).equals(original.subarray(y * 13 * 3, (y + 1) * 13 * 3))).toBe(
        true,
      );
      // The padding repeats the row's last pixel.
      for (let p = 13; p < 16; p++) {
        expect(row.subarray(p * 3, p * 3 + 3).equals(row.subarray(12 * 3, 13 * 3))).toBe(true);
      }
    }
    const { data, info } = await pictureOf(decoded).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([13, 5]);
    expect(data.equals(original)).toBe(true);
  });

  it.each([
    [16, 4],
    [7, 3],
    [1, 1],
  ])("computes brightness four pixels at a time (%ix%i)", (width, height) => {
    const image = noise(width, height, 3);
    const plane = lumaOf(image);
    expect([plane.width, plane.height, plane.channels]).toEqual([width, height, 1]);
    expect(plane.data.length).toBe(width * height);
    for (let p = 0; p < width * height; p++) {
      const i = p * 3;
      expect(plane.data[p]).toBe(luma(image.data[i], image.data[i + 1], image.data[i + 2]));
    }
    // Word views of the input are the same bytes.
    const words = wordsOf(image);
    expect(Buffer.from(words.buffer, words.byteOffset, image.data.length).equals(image.data)).toBe(
      true,
    );
  });

  it("takes the half-size bright pass from one pixel of each block", () => {
    const image = noise(6, 5, 3);
    const bright = halfBrightPass(image, 100, 2);
    expect([bright.width, bright.height]).toEqual([3, 3]);
    for (let y = 0; y < 3; y++) {
      for (let x = 0; x < 3; x++) {
        const i = (2 * y * 6 + 2 * x) * 3;
        const expected = Math.min(
          255,
          Math.max(0, (luma(image.data[i], image.data[i + 1], image.data[i + 2]) - 100) * 2),
        );
        expect(bright.data[y * 3 + x]).toBe(expected);
      }
    }
    // From a brightness plane, the same answer.
    expect(halfBrightPass(lumaOf(image), 100, 2).data.equals(bright.data)).toBe(true);
  });

  it("inks edges over the half-size colour exactly as a pixel-by-pixel pass would", () => {
    const width = 12;
    const height = 5;
    const halfWidth = 6;
    const colour = newPackedPlane(halfWidth * 3);
    const random = seededRandom(Buffer.from("colour"));
    for (let k = 0; k < halfWidth * 3; k++) colour[k] = Math.floor(random() * 0x1000000);
    const fine = noise(width, height, 1, "fine");
    const coarse = noise(width, height, 1, "coarse");
    const table = inkTable(3, 6, 0.9);
    const ink = [12, 10, 24];
    const out = inkOver(
      colour,
      halfWidth,
      { width, height, padding: 2 },
      { fine: wordsOf(fine), coarse: wordsOf(coarse) },
      table,
      ink,
    );
    expect([out.width, out.height, out.padding]).toEqual([width, height, 2]);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const p = y * width + x;
        const packed = colour[(y >> 1) * halfWidth + (x >> 1)];
        const keep = table.keep[coarse.data[p] - fine.data[p] + 255];
        for (let c = 0; c < 3; c++) {
          const value = (packed >> (8 * c)) & 255;
          expect(out.data[p * 3 + c]).toBe((value * keep + ink[c] * (256 - keep)) >> 8);
        }
      }
    }
    expect(() =>
      inkOver(
        colour,
        halfWidth,
        { width: 10, height },
        { fine: wordsOf(fine), coarse: wordsOf(coarse) },
        table,
        ink,
      ),
    ).toThrow();
  });

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
