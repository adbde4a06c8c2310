import crypto from "node:crypto";
import {
  getFileStore,
  getObjectStore,
  isPublicKey,
  isValidFileKey,
  PERSONAL_PUBLIC_CACHE_CONTROL,
  type S3FileStore,
} from "~/infra/file-store.server";
import { PUBLIC_AREAS, verifyMediaRequest } from "~/infra/signed-urls.server";
import { contentTypeOfKey } from "~/infra/file-content-types.server";
import { jsonResponse } from "~/web/http.server";
import { attachmentDisposition } from "~/lib/content-disposition";
import { storedFileResponse } from "~/web/stored-file.server";
import { ensureVariant, VariantQueueFullError } from "~/infra/image-variants.server";
import {
  isVariantFormat,
  isVariantKey,
  isVariantWidth,
  variantKey,
  type VariantFormat,
  type VariantWidth,
} from "~/lib/image-variants";

/** The name a creator's data export is saved under. */
const EXPORT_FILE_NAME = "selfie-studio-data.zip";

/**
 * Serves stored files: public previews, or private files through a signed,
 * expiring URL. A private file is `Cross-Origin-Resource-Policy: same-origin`,
 * so another site cannot load it even with a leaked link; the public
 * watermarked previews stay `cross-origin`, embeddable anywhere. An image can
 * also be asked for at a smaller width and in AVIF, WebP or JPEG (`?w=&fmt=`):
 * that variant is stored once and served with the image's own caching (or,
 * while too many variants wait to be made, the image itself, not to be kept).
 * A URL signed with a download name (`dl`, signedDownloadUrl: the optimized
 * copy a creator downloads) answers the file itself as an attachment under
 * that name; its variants, shown in the page, stay inline.
 */
export async function mediaResponse(request: Request, key: string): Promise<Response> {
  if (!isValidFileKey(key) || key.startsWith("tmp/"))
    return jsonResponse({ message: "Not found" }, { status: 404 });
  const url = new URL(request.url);
  if (!verifyMediaRequest(key, url)) {
    return jsonResponse({ message: "This link is invalid or has expired" }, { status: 403 });
  }
  const variant = requestedVariant(key, url);
  if (variant === "invalid") return jsonResponse({ message: "Not found" }, { status: 404 });
  // A variant is for showing; only the file itself is saved under the signed name.
  const downloadName = variant ? null : downloadNameOf(key, url);
  const objectStore = getObjectStore();
  if (objectStore) return objectStoreRedirect(objectStore, key, variant, url, downloadName);
  const store = getFileStore();
  // A variant is served from its own stored key (made on its first request if the image predates it).
  const servedKey = variant ? await variantOrImage(key, variant) : key;
  if (!servedKey || !(await store.exists(servedKey)))
    return jsonResponse({ message: "Not found" }, { status: 404 });
  const isPublic = PUBLIC_AREAS.some((area) => key.startsWith(area));
  // The image standing in for a variant not made yet: no cache keeps it under the variant's URL.
  const standIn = variant !== null && servedKey === key;
  const headers = {
    "Cache-Control": standIn ? "no-store" : cacheControlFor(key, isPublic, url),
    ETag: entityTag(servedKey, await store.size(servedKey)),
    "Content-Security-Policy": "default-src 'none'; sandbox",
    "Cross-Origin-Resource-Policy": isPublic ? "cross-origin" : "same-origin",
  };
  // A cached copy that is still this file: 304, no body.
  if (matchesEntityTag(request.headers.get("If-None-Match"), headers.ETag))
    return new Response(null, { status: 304, headers });
  return storedFileResponse(servedKey, {
    ...headers,
    "Content-Type": contentTypeOfKey(servedKey),
    // A data export, or a file asked for as a download, is saved under its name, never opened in the tab.
    ...(downloadName ? { "Content-Disposition": attachmentDisposition(downloadName) } : {}),
  });
}

/** The name a file is saved under: a data export's own, or the download name its URL was signed with; null to show it. */
function downloadNameOf(key: string, url: URL): string | null {
  if (key.startsWith("exports/")) return EXPORT_FILE_NAME;
  return isPublicKey(key) ? null : url.searchParams.get("dl");
}

/** How long the presigned URL a /media redirect hands out stays valid, at most. */
const PRESIGNED_REDIRECT_SECONDS = 5 * 60;

/**
 * With object storage no bytes pass through here: a public file (or its
 * variant, made when the file was) is at its public address, and a private
 * file's signed /media URL answers with a presigned URL of the object, valid
 * for what is left of the signature (at most five minutes). A key whose
 * removal is recorded is not found, at once: its signature still checks, but
 * the file was deleted or its owner erased, and nothing is signed for it again.
 */
async function objectStoreRedirect(
  store: S3FileStore,
  key: string,
  variant: { width: VariantWidth; format: VariantFormat } | null,
  url: URL,
  downloadName: string | null,
): Promise<Response> {
  if (await store.isRemoved(key)) return jsonResponse({ message: "Not found" }, { status: 404 });
  if (isPublicKey(key)) {
    const publicKey = variant ? variantKey(key, variant.width, variant.format) : key;
    return new Response(null, {
      status: 301,
      headers: { Location: store.publicUrl(publicKey), "Cache-Control": "public, max-age=86400" },
    });
  }
  // A private image's variant (a creator's own view) is still made on its first request.
  const servedKey = variant ? await variantOrImage(key, variant) : key;
  if (!servedKey || (servedKey !== key && (await store.isRemoved(servedKey))))
    return jsonResponse({ message: "Not found" }, { status: 404 });
  const secondsLeft = Number(url.searchParams.get("exp")) - Math.floor(Date.now() / 1000);
  const ttl = Math.max(1, Math.min(secondsLeft, PRESIGNED_REDIRECT_SECONDS));
  const location = await store.presignedUrl(servedKey, ttl, downloadName ?? undefined);
  return new Response(null, {
    status: 302,
    headers: { Location: location, "Cache-Control": "private, no-store" },
  });
}

/**
 * The stored key of a variant, made now if missing; the image's own key when
 * too many variants already wait to be made (the browser shows the image
 * itself, a little larger, and asks again next time); null when it is gone.
 */
async function variantOrImage(
  key: string,
  variant: { width: VariantWidth; format: VariantFormat },
): Promise<string | null> {
  try {
    return await ensureVariant(getFileStore(), key, variant.width, variant.format);
  } catch (error) {
    if (error instanceof VariantQueueFullError) return key;
    throw error;
  }
}

/**
 * The variant a URL asks for with `?w=<width>&fmt=<format>` (app/lib/image-variants.ts):
 * null for the stored file itself, "invalid" for an unknown width or format,
 * half a pair, or a file that has no variants (not an image, or a variant itself).
 */
function requestedVariant(
  key: string,
  url: URL,
): { width: VariantWidth; format: VariantFormat } | null | "invalid" {
  const width = url.searchParams.get("w");
  const format = url.searchParams.get("fmt");
  if (width === null && format === null) return null;
  // One spelling per variant ("320", not "0320"), so one copy per variant in every cache.
  if (width === null || format === null || String(Number(width)) !== width) return "invalid";
  const pixels = Number(width);
  if (!isVariantWidth(pixels) || !isVariantFormat(format)) return "invalid";
  if (!/\.(png|jpg|webp)$/.test(key) || isVariantKey(key)) return "invalid";
  return { width: pixels, format };
}

/**
 * How long a copy may be kept. A stored file never changes under its key (each
 * write makes a new random key), but a public preview and a profile photo are
 * someone's, and once deleted or erased no cache may keep them long: ten
 * minutes (docs/decisions/086-erasure-leaves-nothing-behind.md); the landing
 * samples are rebuilt at start under their engine version's key, so they get a day. A private file's signed URL stops working at its `exp`,
 * so its copy is private and kept no longer than that.
 */
function cacheControlFor(key: string, isPublic: boolean, url: URL): string {
  if (isPublic)
    return key.startsWith("samples/") ? "public, max-age=86400" : PERSONAL_PUBLIC_CACHE_CONTROL;
  const secondsLeft = Math.max(
    0,
    Number(url.searchParams.get("exp")) - Math.floor(Date.now() / 1000),
  );
  return `private, max-age=${Math.min(secondsLeft, 24 * 60 * 60)}`;
}

/** A strong validator from what identifies the bytes: the (never reused) key and the size. */
function entityTag(key: string, size: number): string {
  return `"${crypto.createHash("sha256").update(`${key}\n${size}`).digest("base64url").slice(0, 27)}"`;
}

function matchesEntityTag(ifNoneMatch: string | null, tag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  return ifNoneMatch.split(",").some((candidate) => candidate.trim().replace(/^W\//, "") === tag);
}
