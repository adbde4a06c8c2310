import sharp from "sharp";
import { STYLE_IDS } from "~/lib/styles";
import { pictureVariants } from "~/lib/image-variants";
import type { FileStore } from "~/infra/file-store.server";
import { makeVariants, warmVariants } from "~/infra/image-variants.server";
import { styleSampleKey } from "~/engines/styling/style-samples.server";

/**
 * The landing samples' AVIF, WebP and smaller JPEG copies (app/lib/image-variants.ts).
 * The engine makes the samples at start; this makes their variants right after,
 * in the background, so the landing page's first visitor waits for no encode.
 * A sample's width is read from its file once per key (a changed engine
 * version is a new key).
 */
const widths = new Map<string, number | null>();

/** A stored sample's width in pixels (null when it cannot be read). */
export async function sampleWidth(store: FileStore, key: string): Promise<number | null> {
  const known = widths.get(key);
  if (known !== undefined) return known;
  let width: number | null = null;
  try {
    width = (await sharp(await store.read(key)).metadata()).width ?? null;
  } catch {
    return null; // missing or unreadable: asked again next time
  }
  widths.set(key, width);
  return width;
}

/** Starts making the variants of every sample that exists (see warmVariants). */
export async function warmSampleVariants(store: FileStore): Promise<void> {
  for (const style of STYLE_IDS) {
    const key = styleSampleKey(style);
    if (!(await store.exists(key))) continue;
    const variants = pictureVariants(key, await sampleWidth(store, key));
    // Object storage serves them from the CDN only, never made on a first request: made before serving.
    if (store.kind === "s3") await makeVariants(store, key, variants);
    else warmVariants(store, key, variants);
  }
}
