import fs from "node:fs";
import fsp from "node:fs/promises";
import { PassThrough, type Readable } from "node:stream";
import {
  CopyObjectCommand,
  GetObjectCommand,
  DeleteObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import type { DB } from "~/infra/db.server";
import { contentTypeOfKey } from "~/infra/file-content-types.server";
import { scratchDirUnder, scratchPathUnder } from "~/infra/owner-only-files.server";
import {
  isPublicKey,
  isValidFileKey,
  PERSONAL_PUBLIC_CACHE_CONTROL,
  type FileStore,
} from "~/infra/file-keys.server";
import {
  dropFileIntent,
  isPendingRemoval,
  recordFileIntent,
  recordFileRemoval,
} from "~/infra/file-intents.server";
import {
  isAccessDenied,
  isForbidden,
  isMissingObject,
  objectStoreError,
} from "~/infra/object-store-errors.server";
import { attachmentDisposition } from "~/lib/content-disposition";
import { isVariantKey, socialCardOf, variantKeysOf } from "~/lib/image-variants";

/** A public object never changes under its key: any cache may keep it for a year (the landing samples, no one's data). */
export const PUBLIC_CACHE_CONTROL = "public, max-age=31536000, immutable";

/**
 * Where a removed object waits in the private bucket for its deletion: under
 * no file key, so nothing ever signs or serves it (its key stops answering at
 * once, as a file moved to the volume's .deleted/ does).
 */
export const HELD_PREFIX = "held/";

export interface S3Settings {
  endpoint?: string;
  region?: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
  bucket: string;
  publicBucket: string;
  publicBaseUrl: string;
}

/** An S3 client that gives up quickly (an upload answers 503 rather than hanging). */
export function s3Client(settings: S3Settings): S3Client {
  // The SDK's notice about future Node versions is not this app's to act on at every start.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region ?? "auto",
    forcePathStyle: settings.forcePathStyle,
    credentials: {
      accessKeyId: settings.accessKeyId,
      secretAccessKey: settings.secretAccessKey,
    },
    maxAttempts: 2,
    // Checksums only where S3 requires them: what R2, MinIO and other S3-compatible servers accept.
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: { connectionTimeout: 3000, requestTimeout: 30_000 },
  });
}

/**
 * Files in S3-compatible object storage: public areas (previews, samples,
 * avatars) in the public bucket (cached ten minutes, the samples a year), the rest in
 * the private bucket, reached through presigned URLs. A key is recorded in
 * file_intents before its object is written; a removal is recorded there too,
 * takes the object off its key at once (remove), and sweepObjectStore deletes
 * its held copy after DELETED_FILES_KEPT_MS.
 */
export class S3FileStore implements FileStore {
  readonly kind = "s3";

  constructor(
    private readonly client: S3Client,
    readonly settings: S3Settings,
    private readonly db: DB,
    private readonly scratchRoot: string,
  ) {}

  bucketOf(key: string): string {
    if (!isValidFileKey(key)) throw new Error(`Not a file key: ${key}`);
    return isPublicKey(key) ? this.settings.publicBucket : this.settings.bucket;
  }

  private objectHeaders(key: string) {
    return {
      ContentType: contentTypeOfKey(key),
      // Previews (their variants and social cards, made again under their key when the title or
      // price changes) and profile photos are someone's: cached ten minutes. The samples: a year.
      ...(isPublicKey(key)
        ? {
            CacheControl: key.startsWith("samples/")
              ? PUBLIC_CACHE_CONTROL
              : PERSONAL_PUBLIC_CACHE_CONTROL,
          }
        : {}),
    };
  }

  async write(key: string, data: Buffer | Uint8Array): Promise<void> {
    const Bucket = this.bucketOf(key);
    await recordFileIntent(this.db, key);
    try {
      await this.client.send(
        new PutObjectCommand({ Bucket, Key: key, Body: data, ...this.objectHeaders(key) }),
      );
    } catch (error) {
      throw objectStoreError("storing a file", key, error);
    }
  }

  /** A multipart upload streamed from the scratch file, which is removed afterwards (stored or not). */
  async putFile(key: string, scratchPath: string): Promise<void> {
    const Bucket = this.bucketOf(key);
    try {
      await recordFileIntent(this.db, key);
      const upload = new Upload({
        client: this.client,
        params: {
          Bucket,
          Key: key,
          Body: fs.createReadStream(scratchPath),
          ...this.objectHeaders(key),
        },
        queueSize: 2,
        partSize: 5 * 1024 * 1024,
        leavePartsOnError: false,
      });
      await upload.done();
    } catch (error) {
      throw objectStoreError("storing a file", key, error);
    } finally {
      await fsp.rm(scratchPath, { force: true });
    }
  }

  async read(key: string): Promise<Buffer> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucketOf(key), Key: key }),
      );
      return Buffer.from(await answer.Body!.transformToByteArray());
    } catch (error) {
      throw objectStoreError("reading a file", key, error);
    }
  }

  stream(key: string): Readable {
    const out = new PassThrough();
    this.client
      .send(new GetObjectCommand({ Bucket: this.bucketOf(key), Key: key }))
      .then((answer) => {
        const body = answer.Body as Readable;
        body.on("error", (error) => out.destroy(objectStoreError("reading a file", key, error)));
        body.pipe(out);
      })
      .catch((error: unknown) => out.destroy(objectStoreError("reading a file", key, error)));
    return out;
  }

  private async head(key: string) {
    try {
      return await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucketOf(key), Key: key }),
      );
    } catch (error) {
      throw objectStoreError("looking up a file", key, error);
    }
  }

  /**
   * Whether an object is under the key. Missing is a 404, or on AWS S3 without
   * s3:ListBucket a 403 that a GET confirms is AccessDenied (see
   * isMissingToUs); any other refusal (wrong credentials) is an error.
   */
  async exists(key: string): Promise<boolean> {
    try {
      return await this.isThere(this.bucketOf(key), key);
    } catch (error) {
      throw objectStoreError("looking up a file", key, error);
    }
  }

  /** A HEAD, and only when it answers 403, the GET that tells why (the SDK's errors are thrown as they are). */
  private async isThere(Bucket: string, Key: string): Promise<boolean> {
    try {
      await this.client.send(new HeadObjectCommand({ Bucket, Key }));
      return true;
    } catch (error) {
      if (isMissingObject(error)) return false;
      if (isForbidden(error) && (await this.isMissingToUs(Bucket, Key))) return false;
      throw error;
    }
  }

  /**
   * After a HEAD answered 403 (no body, so no reason): AWS S3 answers 403 for
   * a missing key when the credentials lack s3:ListBucket (R2, Tigris and
   * MinIO answer 404), and also for a wrong access key or signature. A GET of
   * the key's first byte carries the reason: AccessDenied (or NoSuchKey) means
   * there is nothing we may see under our own key, so it is missing to us; a
   * refusal of the credentials is thrown; an answer with bytes means the HEAD
   * was refused for a reason of its own, and its 403 stays an error.
   * Only existence checks ask this: a GET or PUT of content that must be
   * there keeps its 403 as an error.
   */
  private async isMissingToUs(Bucket: string, Key: string): Promise<boolean> {
    try {
      const answer = await this.client.send(
        new GetObjectCommand({ Bucket, Key, Range: "bytes=0-0" }),
      );
      (answer.Body as Readable | undefined)?.destroy();
      return false;
    } catch (error) {
      if (isAccessDenied(error) || isMissingObject(error)) return true;
      throw error;
    }
  }

  async size(key: string): Promise<number> {
    return (await this.head(key)).ContentLength ?? 0;
  }

  /**
   * Removes a key with the image's variants and social card, at once: the
   * removal is recorded (so nothing signs the key again), the object is moved
   * under HELD_PREFIX in the private bucket, where sweepObjectStore deletes it
   * after DELETED_FILES_KEPT_MS (or puts it back, should a row name the key
   * again), and the variants and cards, made again from their image on
   * demand, are deleted. A presigned or public URL handed out before stops
   * answering (404) there and then. Should the store not answer, the
   * removal stays recorded: the key is refused from now on, and the sweep
   * deletes the objects when due.
   */
  async remove(key: string | null | undefined): Promise<void> {
    if (!key) return;
    const derived: string[] = [];
    if (/\.(png|jpg|webp)$/.test(key) && !isVariantKey(key)) derived.push(...variantKeysOf(key));
    const card = socialCardOf(key);
    if (card) derived.push(card, ...variantKeysOf(card));
    const keys = [key, ...derived].filter(isValidFileKey);
    await recordFileRemoval(this.db, keys);
    try {
      if (isValidFileKey(key)) await this.hold(key);
      await this.deleteObjects(derived.filter(isValidFileKey));
    } catch (error) {
      console.warn(
        `A removed file stays in object storage until the sweep deletes it: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** Whether a key's removal is recorded (and not called off): such a key is never signed or served. */
  isRemoved(key: string): Promise<boolean> {
    return isPendingRemoval(this.db, key);
  }

  /** Moves an object under HELD_PREFIX in the private bucket; a key with no object is left as it is. */
  private async hold(key: string): Promise<void> {
    const source = this.bucketOf(key);
    try {
      await this.client.send(
        new CopyObjectCommand({
          Bucket: this.settings.bucket,
          Key: HELD_PREFIX + key,
          CopySource: `${source}/${key}`,
        }),
      );
    } catch (error) {
      if (isMissingObject(error)) return;
      throw objectStoreError("holding a removed file", key, error);
    }
    await this.deleteObjects([key]);
  }

  /** Puts held objects back under their keys (a removal called off: a row names the key again). */
  async restoreHeld(keys: string[]): Promise<void> {
    for (const key of keys) {
      try {
        await this.client.send(
          new CopyObjectCommand({
            Bucket: this.bucketOf(key),
            Key: key,
            CopySource: `${this.settings.bucket}/${HELD_PREFIX}${key}`,
            ...this.objectHeaders(key),
            MetadataDirective: "REPLACE",
          }),
        );
      } catch (error) {
        if (isMissingObject(error)) continue; // never held (the object was still at its key, or gone)
        throw objectStoreError("restoring a held file", key, error);
      }
      await this.deleteHeld([key]);
    }
  }

  /** Deletes objects now (an orphan discarded before its row). Missing objects are not an error. */
  async discard(key: string): Promise<void> {
    await this.deleteObjects([key]);
    await dropFileIntent(this.db, key);
  }

  /** The sweep's last step: deletes the objects under the keys and their held copies. */
  async deleteNow(keys: string[]): Promise<void> {
    await this.deleteObjects(keys);
    await this.deleteHeld(keys);
  }

  private async deleteHeld(keys: string[]): Promise<void> {
    for (const key of keys) {
      try {
        await this.client.send(
          new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: HELD_PREFIX + key }),
        );
      } catch (error) {
        if (!isMissingObject(error)) throw objectStoreError("deleting files", key, error);
      }
    }
  }

  private async deleteObjects(keys: string[]): Promise<void> {
    const byBucket = new Map<string, string[]>();
    for (const key of keys) {
      const bucket = this.bucketOf(key);
      byBucket.set(bucket, [...(byBucket.get(bucket) ?? []), key]);
    }
    // One request per key: DeleteObjects needs a body checksum that not every S3-compatible server checks alike.
    for (const [Bucket, bucketKeys] of byBucket) {
      for (const Key of bucketKeys) {
        try {
          await this.client.send(new DeleteObjectCommand({ Bucket, Key }));
        } catch (error) {
          if (!isMissingObject(error)) throw objectStoreError("deleting files", Key, error);
        }
      }
    }
  }

  scratchDir(): Promise<string> {
    return scratchDirUnder(this.scratchRoot);
  }

  scratchPath(): Promise<string> {
    return scratchPathUnder(this.scratchRoot);
  }

  /** Both buckets answer a signed request (a missing probe key is an answer: 404, or AWS's 403 AccessDenied). */
  async isReachable(): Promise<boolean> {
    try {
      for (const Bucket of [this.settings.bucket, this.settings.publicBucket]) {
        await this.isThere(Bucket, "tmp/reachability-probe.bin");
      }
      return true;
    } catch {
      return false;
    }
  }

  /** The address of a public file: FILES_PUBLIC_BASE_URL/<key>. */
  publicUrl(key: string): string {
    return `${this.settings.publicBaseUrl.replace(/\/+$/, "")}/${key}`;
  }

  /**
   * A presigned GET URL valid `ttlSeconds`; with `attachmentName`, the store
   * answers with Content-Disposition: attachment under that name.
   */
  async presignedUrl(key: string, ttlSeconds: number, attachmentName?: string): Promise<string> {
    return getSignedUrl(
      this.client,
      new GetObjectCommand({
        Bucket: this.bucketOf(key),
        Key: key,
        ...(attachmentName
          ? { ResponseContentDisposition: attachmentDisposition(attachmentName) }
          : {}),
      }),
      { expiresIn: Math.max(1, Math.floor(ttlSeconds)) },
    );
  }
}
