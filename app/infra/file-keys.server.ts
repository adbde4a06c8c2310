import type { Readable } from "node:stream";
import { newId } from "~/infra/ids.server";

/**
 * Stored files are named by generated keys such as "styled/3kP9....png"
 * (never by user input). A key never changes its bytes: each write makes a new
 * key, which is what lets a CDN keep a public file for a year.
 */

/** A removed file is kept this long before its bytes go (a backup or a slow reader still finds it). */
export const DELETED_FILES_KEPT_MS = 15 * 60 * 1000;

export type FileArea =
  | "originals"
  | "styled"
  | "optimized"
  | "previews"
  | "listings"
  | "kits"
  | "samples"
  | "avatars"
  | "tmp"
  | "exports"
  | "releases";

const KEY_PATTERN =
  /^(originals|styled|optimized|previews|listings|kits|samples|avatars|tmp|exports|releases)\/[A-Za-z0-9_-]{8,64}\.(png|jpg|webp|avif|json|zip|bin|pdf)$/;

export function newFileKey(
  area: FileArea,
  extension: "png" | "jpg" | "webp" | "json" | "zip" | "bin" | "pdf",
): string {
  return `${area}/${newId()}.${extension}`;
}

export function isValidFileKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * The areas anyone may load without a signature: marketplace previews (with
 * their variants and social cards), the landing samples, and profile photos
 * (shown wherever the person's name is). With object storage they live in the
 * public bucket behind FILES_PUBLIC_BASE_URL; everything else is private.
 */
export const PUBLIC_AREAS = ["previews/", "samples/", "avatars/"];

/**
 * A listing's preview (its variants and social card) and a profile photo are
 * someone's: once deleted or erased, no cache may keep them long. Ten minutes,
 * under the 15 minutes a removed file is held (DELETED_FILES_KEPT_MS), so every
 * cached copy has run out by the time its bytes are gone
 * (docs/decisions/086-erasure-leaves-nothing-behind.md).
 */
export const PERSONAL_PUBLIC_CACHE_CONTROL = "public, max-age=600";

export function isPublicKey(key: string): boolean {
  return PUBLIC_AREAS.some((area) => key.startsWith(area));
}

/**
 * Where stored files live: the local volume (LocalFileStore, the default) or
 * S3-compatible object storage (S3FileStore). No code outside a store knows a
 * path on disk: callers hand bytes or a scratch file and read bytes or a stream.
 */
export interface FileStore {
  readonly kind: "local" | "s3";
  /**
   * Stores bytes under a key. Never inside a database transaction: object
   * storage first commits the key as an intent (so a crash after the write
   * leaves an object the sweep can find), which a transaction would take back
   * with it; and on SQLite, whose one connection the transaction holds, it
   * would wait for ever. Store the file, then commit the row that names it.
   */
  write(key: string, data: Buffer | Uint8Array): Promise<void>;
  /** Stores a scratch file (from scratchPath()) under a key; the scratch file is gone afterwards. Not inside a transaction either. */
  putFile(key: string, scratchPath: string): Promise<void>;
  read(key: string): Promise<Buffer>;
  /** The bytes as a stream (an error, such as a missing key, is emitted on the stream). */
  stream(key: string): Readable;
  exists(key: string): Promise<boolean>;
  size(key: string): Promise<number>;
  /** Removes a key (with its variants and social card); kept DELETED_FILES_KEPT_MS before the bytes go. */
  remove(key: string | null | undefined): Promise<void>;
  /**
   * Deletes at once a file just stored whose row was never committed (its
   * transaction refused it): no row, and so no backup, ever named it, so it
   * does not wait like a removal. A file already gone is not an error.
   */
  discard(key: string): Promise<void>;
  /** A fresh path for a scratch file on this machine's local disk. */
  scratchPath(): Promise<string>;
  /** The local directory scratch files are made in (swept of stale ones by the upload procedures). */
  scratchDir(): Promise<string>;
  /** Whether the store answers now (the readiness check). */
  isReachable(): Promise<boolean>;
}
