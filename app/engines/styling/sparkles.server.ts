import type { RawImage } from "~/engines/styling/raw-image.server";

const COLOURS = [
  [255, 246, 222],
  [255, 214, 120],
  [206, 238, 255],
  [255, 190, 240],
];

/**
 * Draws four-pointed sparkles (a soft core with two thin rays) onto an RGB
 * image with a screen blend. Positions, sizes and colours come from `random`,
 * so a seeded generator places them the same way every time. Sparkles favour
 * the edges of the frame, away from the subject in the middle.
 */
export function drawSparkles(image: RawImage, random: () => number, count: number) {
  const { height } = image;
  // Sparkles land on the picture, not on any padding columns; rows are `stride` pixels apart.
  const stride = image.width;
  const width = stride - (image.padding ?? 0);
  const o = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.length);
  const scale = Math.max(width, height) / 1024;
  for (let n = 0; n < count; n++) {
    const x = random() * width;
    const y = random() * height;
    const size = random();
    const tint = COLOURS[Math.floor(random() * COLOURS.length)];
    const distance = Math.hypot((x / width - 0.5) * 2, (y / height - 0.42) * 2);
    if (random() > distance * 0.9) continue;
    const radius = (2 + size * size * size * 22) * scale;
    const core = Math.max(0.8, radius / 5);
    const reach = Math.ceil(radius);
    const left = Math.max(0, Math.floor(x - reach));
    const right = Math.min(width - 1, Math.ceil(x + reach));
    const top = Math.max(0, Math.floor(y - reach));
    const bottom = Math.min(height - 1, Math.ceil(y + reach));
    for (let py = top; py <= bottom; py++) {
      const dy = py - y;
      for (let px = left; px <= right; px++) {
        const dx = px - x;
        const falloff = 1 / (1 + (dx * dx + dy * dy) / (core * core));
        const glow = falloff * falloff;
        const rayX = Math.max(0, 1 - Math.abs(dx) / radius) / (1 + dy * dy);
        const rayY = Math.max(0, 1 - Math.abs(dy) / radius) / (1 + dx * dx);
        const light = Math.min(1, glow + 0.8 * (rayX + rayY));
        if (light < 0.02) continue;
        const i = (py * stride + px) * 3;
        for (let c = 0; c < 3; c++) {
          const add = tint[c] * light;
          o[i + c] = 255 - ((255 - o[i + c]) * (255 - add)) / 255;
        }
      }
    }
  }
}
