import { PRODUCT_NAME } from "~/lib/product";

/**
 * The optimizer's watermark: the product name set in capitals along diagonal
 * rows across the picture, faint enough to leave the image readable, plus one
 * firmer mark in the lower right corner. The letters are drawn as vector
 * strokes (no font files), so the mark looks the same on every machine,
 * including a slim container without fonts.
 */

/** Stroke glyphs on a 10 x 14 cap box; `advance` is the horizontal space the letter takes. */
const GLYPHS: Record<string, { d: string; advance: number }> = {
  S: {
    d: "M9 2.2C8 0.7 6.6 0 5 0C2.6 0 1 1.4 1 3.5C1 5.6 3 6.4 5 7C7 7.6 9 8.5 9 10.5C9 12.6 7.4 14 5 14C3.3 14 1.9 13.3 1 11.8",
    advance: 10,
  },
  E: { d: "M9 0H1V14H9M1 7H7.5", advance: 10 },
  L: { d: "M1 0V14H9", advance: 10 },
  F: { d: "M9 0H1V14M1 7H7.5", advance: 10 },
  I: { d: "M1 0V14", advance: 2 },
  T: { d: "M0 0H10M5 0V14", advance: 10 },
  U: { d: "M1 0V9A4 4 0 0 0 9 9V0", advance: 10 },
  D: { d: "M1 0H4A6 7 0 0 1 4 14H1Z", advance: 10 },
  O: { d: "M5 0A4.5 7 0 0 1 5 14A4.5 7 0 0 1 5 0Z", advance: 10 },
  " ": { d: "", advance: 5 },
};
const LETTER_GAP = 3.5;
const CAP_HEIGHT = 14;

/** The watermark text as one SVG path in glyph units, and its width in those units. */
export function textPath(text: string): { d: string; width: number } {
  let x = 0;
  const parts: string[] = [];
  for (const char of text.toUpperCase()) {
    const glyph = GLYPHS[char];
    if (!glyph) continue;
    if (glyph.d) parts.push(translatePath(glyph.d, x));
    x += glyph.advance + LETTER_GAP;
  }
  return { d: parts.join(""), width: Math.max(0, x - LETTER_GAP) };
}

/** Shifts every x coordinate of an absolute path made of M, H, V, C, A and Z commands. */
function translatePath(d: string, dx: number): string {
  return d.replace(/([MHVCAZ])([^MHVCAZ]*)/g, (_, command: string, args: string) => {
    const numbers =
      args.trim() === ""
        ? []
        : args
            .trim()
            .split(/[\s,]+/)
            .map(Number);
    switch (command) {
      case "H":
        return `H${round(numbers[0] + dx)}`;
      case "V":
      case "Z":
        return command + args.trim();
      case "A": {
        const [rx, ry, rotation, large, sweep, x, y] = numbers;
        return `A${rx} ${ry} ${rotation} ${large} ${sweep} ${round(x + dx)} ${y}`;
      }
      default: {
        // M and C: x, y pairs
        const shifted = numbers.map((value, index) =>
          index % 2 === 0 ? round(value + dx) : value,
        );
        return command + shifted.join(" ");
      }
    }
  });
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

/** An SVG the size of the image with the watermark, ready for sharp's composite(). */
export function watermarkSvg(width: number, height: number, text = PRODUCT_NAME): string {
  const { d, width: textWidth } = textPath(text);
  const short = Math.min(width, height);
  // Diagonal rows: letters about 3.5% of the short side tall.
  const scale = Math.max(0.4, (short * 0.035) / CAP_HEIGHT);
  const stroke = 1.6;
  const tileWidth = (textWidth + 40) * scale;
  const rowGap = CAP_HEIGHT * scale * 5;
  const diagonal = Math.hypot(width, height);
  const rows: string[] = [];
  let row = 0;
  for (let y = -diagonal; y <= diagonal; y += rowGap, row += 1) {
    const offset = (row % 2) * (tileWidth / 2);
    for (let x = -diagonal - offset; x <= diagonal; x += tileWidth) {
      rows.push(
        `<use href="#mark" transform="translate(${round(x)} ${round(y)}) scale(${round(scale)})"/>`,
      );
    }
  }
  // The corner mark: letters about 4.5% of the short side tall, 3% in from the edges.
  const cornerScale = Math.max(0.5, (short * 0.045) / CAP_HEIGHT);
  const margin = short * 0.03;
  const cornerX = width - margin - textWidth * cornerScale;
  const cornerY = height - margin - CAP_HEIGHT * cornerScale;
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">`,
    `<defs><path id="mark" d="${d}" fill="none" stroke-linecap="round" stroke-linejoin="round" stroke-width="${stroke}"/></defs>`,
    `<g transform="translate(${round(width / 2)} ${round(height / 2)}) rotate(-30)">`,
    `<g stroke="#000000" stroke-opacity="0.10" transform="translate(1 1)">${rows.join("")}</g>`,
    `<g stroke="#ffffff" stroke-opacity="0.30">${rows.join("")}</g>`,
    `</g>`,
    `<g transform="translate(${round(cornerX)} ${round(cornerY)}) scale(${round(cornerScale)})">`,
    `<use href="#mark" stroke="#000000" stroke-opacity="0.35" transform="translate(0.6 0.6)"/>`,
    `<use href="#mark" stroke="#ffffff" stroke-opacity="0.85"/>`,
    `</g>`,
    `</svg>`,
  ].join("");
}
