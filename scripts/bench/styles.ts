/**
 * npm run bench:styles  (or: npx tsx scripts/bench/styles.ts [runs])
 *
 * The local style engine alone: per style on a 1024 px portrait, warm, its
 * wall-clock and CPU time against the limits, next to the bare sharp
 * baseline and the previous engine's recorded figures, and the memory the
 * models add (see style-engine.ts). Measures and prints; asserts nothing.
 */
import os from "node:os";
import sharp from "sharp";
import { stopVision } from "~/engines/styling/vision/vision-client.server";
import { printTable, printTableAndVerdict } from "./measure";
import { benchStyleEngine, benchTwelveMegapixels } from "./style-engine";

const runs = Math.max(3, Number(process.argv[2]) || 9);
// One libvips thread, as the server runs the engine beside the web server.
sharp.concurrency(1);
const [load] = os.loadavg();
console.log(
  `Local style engine on a 1024x1024 JPEG portrait; medians of ${runs} runs after 3 warm-ups.`,
);
console.log(
  `Node ${process.version}, ${os.availableParallelism()} cores (load ${load.toFixed(1)}), libvips ${sharp.versions.vips}, sharp concurrency ${sharp.concurrency()}.\n`,
);
const rows = await benchStyleEngine(runs);
printTableAndVerdict(rows);
console.log(
  "\nA 12 MP phone selfie (4032x3024 JPEG), rendered up to the engine's size cap; medians of 3 runs.\n",
);
printTable(await benchTwelveMegapixels(3));
await stopVision();
