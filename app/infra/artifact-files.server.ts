import sharp from "sharp";
import type { FileStore } from "~/infra/file-keys.server";
import { newId } from "~/infra/ids.server";

/**
 * Files of kits and packages live under kits/, named by one generated id:
 * kits/<id>.zip is what the creator downloads; a mint kit's image is also kept
 * beside it as kits/<id>.png or .jpg, so its metadata can point at it.
 */

export function newArtifactId(): string {
  return newId();
}

export function artifactZipKey(id: string): string {
  return `kits/${id}.zip`;
}

export function artifactImageKey(id: string, extension: "png" | "jpg"): string {
  return `kits/${id}.${extension}`;
}

/** Every file an artifact may have, from its zip's key. */
export function artifactKeys(zipKey: string): string[] {
  const id = zipKey.replace(/^kits\//, "").replace(/\.zip$/, "");
  return [zipKey, artifactImageKey(id, "png"), artifactImageKey(id, "jpg")];
}

export async function removeArtifact(
  store: FileStore,
  zipKey: string | null | undefined,
): Promise<void> {
  if (!zipKey) return;
  for (const key of artifactKeys(zipKey)) await store.remove(key);
}

/** The image bytes as PNG or JPEG (what NFT platforms take); WebP is converted to PNG. */
export async function imageForKit(
  store: FileStore,
  fileKey: string,
): Promise<{ data: Buffer; extension: "png" | "jpg" }> {
  const data = await store.read(fileKey);
  if (fileKey.endsWith(".jpg")) return { data, extension: "jpg" };
  if (fileKey.endsWith(".png")) return { data, extension: "png" };
  return {
    data: await sharp(data, { failOn: "error" }).rotate().png().toBuffer(),
    extension: "png",
  };
}
