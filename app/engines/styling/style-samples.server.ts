import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import url from "node:url";
import { STYLE_IDS, type StyleId } from "~/lib/styles";
import { getFileStore, type FileStore } from "~/infra/file-store.server";
import { publicMediaUrl } from "~/infra/signed-urls.server";
import { createLocalEngine, LOCAL_ENGINE_VERSION } from "~/engines/styling/local-engine.server";

/**
 * The landing page's four hero samples are real outputs of the local engine,
 * made from a bundled public-domain portrait and stored on the data volume
 * under samples/ (public, like marketplace previews). They are made once;
 * the engine version is in the file names, so a changed look is remade once
 * after an upgrade.
 */
export const SAMPLE_SOURCE = "db/seed-assets/portrait.png";
export const STYLE_SAMPLE_CREDIT =
  "Sample portrait: astronaut Eileen Collins, NASA (public domain).";

export function styleSampleKey(style: StyleId): string {
  return `samples/${style}_sample_v${LOCAL_ENGINE_VERSION}.jpg`;
}

/** Public URLs of the four samples, by style. */
export function styleSampleUrls(): Record<StyleId, string> {
  return Object.fromEntries(
    STYLE_IDS.map((style) => [style, publicMediaUrl(styleSampleKey(style))]),
  ) as Record<StyleId, string>;
}

/** Finds the bundled portrait from this module's folder upwards (source tree or server build), then the working directory. */
export function findSampleSource(): string {
  const starts = [path.dirname(url.fileURLToPath(import.meta.url)), process.cwd()];
  for (const start of starts) {
    for (let dir = start; ; dir = path.dirname(dir)) {
      const candidate = path.join(dir, SAMPLE_SOURCE);
      if (fs.existsSync(candidate)) return candidate;
      if (path.dirname(dir) === dir) break;
    }
  }
  throw new Error(`The sample portrait ${SAMPLE_SOURCE} is missing.`);
}

/**
 * Makes whichever samples are missing (cheap when all exist: four stat calls).
 * A failure is logged, not thrown: the product works without its samples.
 */
export async function ensureStyleSamples(
  options: { store?: FileStore; log?: (line: string) => void } = {},
): Promise<{ created: StyleId[] }> {
  const store = options.store ?? getFileStore();
  const log = options.log ?? console.warn;
  const created: StyleId[] = [];
  const missing: StyleId[] = [];
  for (const style of STYLE_IDS) {
    if (!(await store.exists(styleSampleKey(style)))) missing.push(style);
  }
  if (missing.length === 0) return { created };
  try {
    const source = await fsp.readFile(findSampleSource());
    const engine = createLocalEngine();
    for (const style of missing) {
      const result = await engine.stylize(source, style);
      await store.write(styleSampleKey(style), result.data);
      created.push(style);
    }
    log(`Made the landing page's style samples: ${created.join(", ")}.`);
  } catch (error) {
    log(
      `Could not make the landing page's style samples: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  return { created };
}
