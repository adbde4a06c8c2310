import crypto from "node:crypto";
import { deriveKey } from "~/infra/keys.server";
import { getObjectStore, isPublicKey, PUBLIC_AREAS } from "~/infra/file-store.server";

export { PUBLIC_AREAS };

/**
 * Private files are served at /media/<key>?exp=<unix seconds>&sig=<hmac>.
 * Public marketplace previews (keys under previews/ and samples/) and profile
 * photos (avatars/, shown wherever the person's name is) need no signature.
 * With object storage, a public file's URL is FILES_PUBLIC_BASE_URL/<key> (the
 * CDN), and /media answers a signed private URL with a redirect to a
 * short-lived presigned URL of the object (app/web/media.server.ts).
 */
const DEFAULT_TTL_SECONDS = 60 * 60;

function signature(key: string, expires: number, download?: string): string {
  return crypto
    .createHmac("sha256", deriveKey("signed-media-urls"))
    .update(download === undefined ? `${key}\n${expires}` : `${key}\n${expires}\n${download}`)
    .digest("base64url");
}

/** A name a download may be saved under: letters, digits, dots, dashes and underscores, with an extension. */
const DOWNLOAD_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}\.[a-z0-9]{2,5}$/;

export function isDownloadName(name: string): boolean {
  return DOWNLOAD_NAME.test(name);
}

export function signedMediaUrl(
  key: string,
  ttlSeconds = DEFAULT_TTL_SECONDS,
  now = Date.now(),
): string {
  const expires = Math.floor(now / 1000) + ttlSeconds;
  return `/media/${key}?exp=${expires}&sig=${signature(key, expires)}`;
}

/**
 * A signed, expiring URL that downloads a private file: /media answers it with
 * `Content-Disposition: attachment` under `filename` (docs/decisions/092). The
 * signature covers the name, so whoever holds the link cannot change it.
 */
export function signedDownloadUrl(
  key: string,
  filename: string,
  ttlSeconds = DEFAULT_TTL_SECONDS,
  now = Date.now(),
): string {
  if (!isDownloadName(filename)) throw new Error(`Not a download name: ${filename}`);
  const expires = Math.floor(now / 1000) + ttlSeconds;
  return `/media/${key}?exp=${expires}&dl=${filename}&sig=${signature(key, expires, filename)}`;
}

export function publicMediaUrl(key: string): string {
  if (!isPublicKey(key)) throw new Error(`Not a public file: ${key}`);
  return getObjectStore()?.publicUrl(key) ?? `/media/${key}`;
}

/**
 * Whether a request for a key may be served: public, or signed and not
 * expired (a download's name, `dl`, signed with it).
 */
export function verifyMediaRequest(key: string, url: URL, now = Date.now()): boolean {
  if (isPublicKey(key)) return true;
  const expires = Number(url.searchParams.get("exp"));
  const sig = url.searchParams.get("sig") ?? "";
  const download = url.searchParams.get("dl") ?? undefined;
  if (!Number.isInteger(expires) || expires * 1000 < now) return false;
  if (download !== undefined && !isDownloadName(download)) return false;
  const expected = Buffer.from(signature(key, expires, download));
  const given = Buffer.from(sig);
  return given.length === expected.length && crypto.timingSafeEqual(given, expected);
}
