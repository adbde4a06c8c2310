import path from "node:path";
import url from "node:url";
import sharp from "sharp";
import { STYLE_IDS } from "~/lib/styles";
import { createLocalEngine } from "~/engines/styling/local-engine.server";
import { pairedMedianMs, row, type BenchRow } from "./measure";

/**
 * The local style engine per style on a 1024 px portrait, against a bare sharp
 * decode + resize + JPEG encode of the same image. The baseline is measured
 * in turns with each style (style, baseline, style, ...), so drift and other
 * load hit both alike.
 */
const here = path.dirname(url.fileURLToPath(import.meta.url));
export const PORTRAIT = path.resolve(here, "../../tests/fixtures/portrait.png");

/** The 512 px fixture portrait enlarged to 1024 px and stored as a JPEG, like an uploaded original. */
export const portrait1024 = () =>
  sharp(PORTRAIT).resize(1024, 1024).jpeg({ quality: 92 }).toBuffer();

export async function benchStyleEngine(runs = 15): Promise<BenchRow[]> {
  const input = await portrait1024();
  const bare = () =>
    sharp(input).resize(1024, 1024, { fit: "inside" }).jpeg({ quality: 90 }).toBuffer();
  const engine = createLocalEngine();
  const rows: BenchRow[] = [];
  for (const style of STYLE_IDS) {
    const { value, baseline } = await pairedMedianMs(
      () => engine.stylize(input, style),
      bare,
      runs,
    );
    rows.push(
      row({
        name: `local engine: ${style}`,
        value,
        baseline,
        unit: "ms",
        limit: 3,
        limitOf: "ratio",
        against: "bare sharp decode+resize+encode",
      }),
    );
  }
  return rows;
}
