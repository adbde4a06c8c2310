/**
 * npm run styles:sheet  (or: npx tsx scripts/styles-sheet.ts [output.jpg])
 *
 * A contact sheet of the local style engine: every test fixture and portrait
 * in tests/fixtures, one row each, the original then the four styles, with
 * labels, as one JPEG (docs/styles-contact-sheet.jpg by default, kept small
 * enough to commit).
 */
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import sharp, { type OverlayOptions } from "sharp";
import { STYLE_IDS } from "~/lib/styles";
import { createLocalEngine } from "~/engines/styling/local-engine.server";
import { stopVision } from "~/engines/styling/vision/vision-client.server";

const root = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "..");
const fixtures = path.join(root, "tests", "fixtures");
const output = path.resolve(process.argv[2] ?? path.join(root, "docs", "styles-contact-sheet.jpg"));
const TILE = 240;
const LABEL = 22;
const GAP = 6;

const names = fs
  .readdirSync(fixtures)
  .filter((name) => /\.(png|jpe?g|webp)$/i.test(name) && name !== "truncated.jpg")
  .sort(
    (a, b) =>
      Number(!a.startsWith("portrait")) - Number(!b.startsWith("portrait")) || a.localeCompare(b),
  );

const label = (text: string, width: number) =>
  Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${LABEL}"><text x="${width / 2}" y="16" font-family="sans-serif" font-size="13" fill="#e8e8ec" text-anchor="middle">${text}</text></svg>`,
  );

const tile = (image: Buffer) =>
  sharp(image)
    .resize(TILE, TILE, { fit: "contain", background: "#1c1c22" })
    .flatten({ background: "#1c1c22" })
    .png()
    .toBuffer();

const engine = createLocalEngine();
const columns = ["original", ...STYLE_IDS];
const width = columns.length * TILE + (columns.length + 1) * GAP;
const rowHeight = TILE + LABEL + GAP;
const parts: OverlayOptions[] = [];
for (const [row, name] of names.entries()) {
  const input = fs.readFileSync(path.join(fixtures, name));
  const meta = await sharp(input).metadata();
  const top = GAP + row * rowHeight;
  const images: Buffer[] = [input];
  const captions = [`${name} ${meta.width}×${meta.height}`];
  for (const style of STYLE_IDS) {
    const result = await engine.stylize(input, style);
    images.push(result.data);
    captions.push(`${style} ${result.width}×${result.height}`);
    process.stdout.write(".");
  }
  for (const [column, image] of images.entries()) {
    const left = GAP + column * (TILE + GAP);
    parts.push({ input: await tile(image), left, top });
    parts.push({ input: label(captions[column], TILE), left, top: top + TILE });
  }
}
await sharp({
  create: {
    width,
    height: GAP + names.length * rowHeight,
    channels: 3,
    background: "#1c1c22",
  },
})
  .composite(parts)
  .jpeg({ quality: 78, mozjpeg: true })
  .toFile(output);
await stopVision();
console.log(
  `\n${names.length} rows: ${path.relative(root, output)} (${(fs.statSync(output).size / 1024).toFixed(0)} KB)`,
);
