import sharp from "sharp";
import type { FileStore } from "~/infra/file-store.server";
import { variantKey, type VariantFormat, type VariantWidth } from "~/lib/image-variants";

/**
 * Makes and stores the variants of a stored image (see app/lib/image-variants.ts
 * for their keys and URLs). Each is encoded once: a stored variant is returned
 * as it is, and two requests for one missing variant share one encode.
 *
 * A listing's preview gets its variants when the listing is made
 * (makeVariantsAhead, the creator's request waits for them), so visitors
 * normally find them stored. Only older images are encoded on a visitor's
 * request: those encodes run one at a time, so a burst of first requests
 * costs one encoder's memory, not one per request, and at most
 * MAX_WAITING_VISITOR_ENCODES wait; past that, ensureVariant refuses at once
 * (VariantQueueFullError) and the caller serves the image itself, so no
 * visitor can pile up work. A visitor's encode goes before background
 * warm-ups (the landing samples at start).
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

/** How many visitors' encodes may wait behind the one running before more are refused. */
export const MAX_WAITING_VISITOR_ENCODES = 8;

/** A visitor's encode was refused: MAX_WAITING_VISITOR_ENCODES already wait. */
export class VariantQueueFullError extends Error {
  constructor() {
    super("Too many image variants waiting to be made");
    this.name = "VariantQueueFullError";
  }
}

/**
 * Encodes run one at a time: first those a visitor waits for (at most
 * MAX_WAITING_VISITOR_ENCODES of them waiting), then the background ones
 * (warm-ups), so a warm-up after a start never holds up a page.
 */
interface Task {
  target: string;
  start: () => void;
}
const waiting: { now: Task[]; later: Task[] } = { now: [], later: [] };
let running = false;

/** Visitors' encodes waiting for the encoder (not counting the one it runs). */
export function visitorEncodesWaiting(): number {
  return waiting.now.length;
}

const visitorQueueIsFull = () => running && waiting.now.length >= MAX_WAITING_VISITOR_ENCODES;

function runNext(): void {
  const task = waiting.now.shift() ?? waiting.later.shift();
  running = Boolean(task);
  task?.start();
}

function schedule<T>(target: string, urgent: boolean, work: () => Promise<T>): Promise<T> {
  if (urgent && visitorQueueIsFull()) throw new VariantQueueFullError();
  return new Promise<T>((resolve, reject) => {
    (urgent ? waiting.now : waiting.later).push({
      target,
      start: () => void work().then(resolve, reject).finally(runNext),
    });
    if (!running) runNext();
  });
}

/**
 * A visitor now waits for an encode already pending. A background one still
 * queued moves to the visitors' queue, unless that is full: then the visitor
 * is refused like any other past the limit.
 */
function promote(target: string): void {
  const index = waiting.later.findIndex((task) => task.target === target);
  if (index < 0) return;
  if (visitorQueueIsFull()) throw new VariantQueueFullError();
  waiting.now.push(...waiting.later.splice(index, 1));
}

async function encodeAndStore(
  store: FileStore,
  key: string,
  target: string,
  width: VariantWidth,
  format: VariantFormat,
): Promise<string> {
  if (await store.exists(target)) return target; // made meanwhile
  await store.write(target, await encodeVariant(await store.read(key), width, format));
  return target;
}

/** Registers an encode under way, so every caller for the same variant shares it. */
function shared(target: string, made: Promise<string>): Promise<string> {
  const tracked = made.finally(() => inFlight.delete(target));
  inFlight.set(target, tracked);
  return tracked;
}

/**
 * The key of a variant of `key`, made and stored now if it is missing
 * (`urgent`: a visitor waits for it; otherwise after every such one).
 * Answers null when the image itself is gone; throws VariantQueueFullError
 * when a visitor's encode would have to wait behind too many others.
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
  if (inFlight.has(target)) return inFlight.get(target)!; // started while this call looked
  return shared(
    target,
    schedule(target, urgent, () => encodeAndStore(store, key, target, width, format)),
  );
}

/**
 * Makes every missing variant in the list now, one after another, in the
 * caller's own time (not through the visitors' queue, so it is never
 * refused); an encode already under way for one is shared. Answers the keys
 * it made.
 */
export async function makeVariants(
  store: FileStore,
  key: string,
  variants: readonly { width: VariantWidth; format: VariantFormat }[],
): Promise<string[]> {
  const made: string[] = [];
  for (const { width, format } of variants) {
    const target = variantKey(key, width, format);
    if (await store.exists(target)) continue;
    const pending = inFlight.get(target);
    if (pending) {
      await pending;
      continue;
    }
    await shared(target, encodeAndStore(store, key, target, width, format));
    made.push(target);
  }
  return made;
}

let aheadEnabled = false;

/**
 * Lets makeVariantsAhead and warmVariants work. The server turns it on at
 * start; unit tests leave it off (each listing a test makes would otherwise
 * spend about a second encoding), and turn it on where variants are tested.
 */
export function enableVariantWarmUp(enabled = true): void {
  aheadEnabled = enabled;
}

/**
 * Makes a freshly stored image's variants before anyone asks for them (when
 * enabled), and waits for them: a listing's preview is served with every
 * variant from its first visitor on. A failure is only logged: the variant is
 * then made on its first request. Answers the keys it made.
 */
export async function makeVariantsAhead(
  store: FileStore,
  key: string,
  variants: readonly { width: VariantWidth; format: VariantFormat }[],
  log: (line: string) => void = console.warn,
): Promise<string[]> {
  // Object storage serves variants from the CDN only: they are made now, whatever the setting, and a failure fails the caller.
  if (store.kind === "s3") return makeVariants(store, key, variants);
  if (!aheadEnabled) return [];
  try {
    return await makeVariants(store, key, variants);
  } catch (error) {
    log(
      `Could not make the variants of ${key}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return [];
  }
}

/**
 * Makes a stored image's variants in the background (when enabled), after
 * every visitor's encode: for images that exist before anyone is waiting (the
 * landing samples at start). A visitor who comes sooner shares the encode
 * under way. A failure is only logged: the variant is then made on its first
 * request.
 */
export function warmVariants(
  store: FileStore,
  key: string,
  variants: readonly { width: VariantWidth; format: VariantFormat }[],
  log: (line: string) => void = console.warn,
): void {
  if (!aheadEnabled) return;
  (async () => {
    for (const { width, format } of variants) {
      await ensureVariant(store, key, width, format, { urgent: false });
    }
  })().catch((error: unknown) =>
    log(
      `Could not make the variants of ${key}: ${error instanceof Error ? error.message : String(error)}`,
    ),
  );
}
