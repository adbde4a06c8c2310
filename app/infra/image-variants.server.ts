import sharp from "sharp";
import type { FileStore } from "~/infra/file-store.server";
import { variantKey, type VariantFormat, type VariantWidth } from "~/lib/image-variants";

/**
 * Makes and stores the variants of a stored image (see app/lib/image-variants.ts
 * for their keys and URLs). Each is encoded once: a stored variant is returned
 * as it is, and two requests for one missing variant share one encode. Encodes
 * run one at a time, so a burst of first requests (old previews after an
 * upgrade) costs one encoder's memory, not one per request; a visitor's
 * request goes before background warm-ups.
 *
 * Settings (measured in docs/performance.md): AVIF at quality 50, effort 2,
 * 4:2:0 chroma: about 0.14 s for 640 px and 0.4 s for 960 px on one core,
 * where effort 4 takes 1 s and 2.3 s for 3-4 % fewer bytes. WebP at 65,
 * effort 4 (at 72 it is no smaller than mozjpeg on these sharp-edged,
 * watermarked images); JPEG at 72 with mozjpeg, as the previews themselves. Metadata is
 * not copied: the variants are for display, and the stored image keeps its own.
 */
export const VARIANT_SETTINGS = {
  avif: { quality: 50, effort: 2, chromaSubsampling: "4:2:0" },
  webp: { quality: 65, effort: 4 },
  jpg: { quality: 72, mozjpeg: true },
} as const;

/** Encodes one variant of an image's bytes: at most `width` wide, never wider than the image. */
export async function encodeVariant(
  source: Buffer,
  width: number,
  format: VariantFormat,
): Promise<Buffer> {
  const image = sharp(source, { failOn: "error" })
    .rotate()
    .resize({ width, withoutEnlargement: true })
    .flatten({ background: "#ffffff" }); // one look in every format: transparency on white
  if (format === "avif") return image.avif(VARIANT_SETTINGS.avif).toBuffer();
  if (format === "webp") return image.webp(VARIANT_SETTINGS.webp).toBuffer();
  return image.jpeg(VARIANT_SETTINGS.jpg).toBuffer();
}

const inFlight = new Map<string, Promise<string>>();

/**
 * Encodes run one at a time: first those a visitor waits for, then the
 * background ones (warm-ups), so a warm-up after a start never holds up a page.
 */
interface Task {
  target: string;
  start: () => void;
}
const waiting: { now: Task[]; later: Task[] } = { now: [], later: [] };
let running = false;

function runNext(): void {
  const task = waiting.now.shift() ?? waiting.later.shift();
  running = Boolean(task);
  task?.start();
}

function schedule<T>(target: string, urgent: boolean, work: () => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    (urgent ? waiting.now : waiting.later).push({
      target,
      start: () => void work().then(resolve, reject).finally(runNext),
    });
    if (!running) runNext();
  });
}

/** A visitor now waits for a background encode still queued: it moves to the front. */
function promote(target: string): void {
  const index = waiting.later.findIndex((task) => task.target === target);
  if (index >= 0) waiting.now.push(...waiting.later.splice(index, 1));
}

/**
 * The key of a variant of `key`, made and stored now if it is missing
 * (`urgent`: a visitor waits for it; otherwise after every such one).
 * Answers null when the image itself is gone.
 */
export async function ensureVariant(
  store: FileStore,
  key: string,
  width: VariantWidth,
  format: VariantFormat,
  { urgent = true }: { urgent?: boolean } = {},
): Promise<string | null> {
  const target = variantKey(key, width, format);
  if (await store.exists(target)) return target;
  const pending = inFlight.get(target);
  if (pending) {
    if (urgent) promote(target);
    return pending;
  }
  if (!(await store.exists(key))) return null;
  const made = schedule(target, urgent, async () => {
    if (await store.exists(target)) return target; // made meanwhile
    await store.write(target, await encodeVariant(await store.read(key), width, format));
    return target;
  }).finally(() => inFlight.delete(target));
  inFlight.set(target, made);
  return made;
}

/** Makes every missing variant in the list, one after another. Answers the keys it made. */
export async function makeVariants(
  store: FileStore,
  key: string,
  variants: readonly { width: VariantWidth; format: VariantFormat }[],
): Promise<string[]> {
  const made: string[] = [];
  for (const { width, format } of variants) {
    const target = variantKey(key, width, format);
    if (await store.exists(target)) continue;
    if (await ensureVariant(store, key, width, format, { urgent: false })) made.push(target);
  }
  return made;
}

let warmUpEnabled = false;

/**
 * Lets warmVariants work. The server turns it on at start; unit tests leave it
 * off, so listing an image in a test encodes nothing in the background.
 */
export function enableVariantWarmUp(enabled = true): void {
  warmUpEnabled = enabled;
}

/**
 * Makes a freshly stored image's variants in the background (when enabled),
 * so its first visitor waits for no encode; a visitor who comes sooner shares
 * the encode under way. A failure is only logged: the variant is then made on
 * its first request.
 */
export function warmVariants(
  store: FileStore,
  key: string,
  variants: readonly { width: VariantWidth; format: VariantFormat }[],
  log: (line: string) => void = console.warn,
): void {
  if (!warmUpEnabled) return;
  makeVariants(store, key, variants).catch((error: unknown) =>
    log(
      `Could not make the variants of ${key}: ${error instanceof Error ? error.message : String(error)}`,
    ),
  );
}
