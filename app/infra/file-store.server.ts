import { getConfig, type Config } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-keys.server";
import { LocalFileStore } from "~/infra/local-file-store.server";
import { S3FileStore, s3Client, type S3Settings } from "~/infra/s3-file-store.server";

export {
  DELETED_FILES_KEPT_MS,
  isPublicKey,
  isValidFileKey,
  newFileKey,
  PERSONAL_PUBLIC_CACHE_CONTROL,
  PUBLIC_AREAS,
  type FileArea,
  type FileStore,
} from "~/infra/file-keys.server";
export { DELETED_DIR, LocalFileStore, purgeDeletedFiles } from "~/infra/local-file-store.server";
export { S3FileStore } from "~/infra/s3-file-store.server";

/** The object storage settings, or null for files on the local volume (config.server.ts checked they are whole). */
export function objectStorageSettings(config: Config): S3Settings | null {
  if (!config.FILES_S3_BUCKET) return null;
  return {
    endpoint: config.AWS_ENDPOINT_URL_S3,
    region: config.AWS_REGION,
    accessKeyId: config.AWS_ACCESS_KEY_ID!,
    secretAccessKey: config.AWS_SECRET_ACCESS_KEY!,
    // Path style (endpoint/bucket/key) for S3-compatible servers; AWS itself takes bucket.host.
    forcePathStyle:
      config.FILES_S3_FORCE_PATH_STYLE === undefined || config.FILES_S3_FORCE_PATH_STYLE === ""
        ? Boolean(config.AWS_ENDPOINT_URL_S3)
        : config.FILES_S3_FORCE_PATH_STYLE === "true",
    bucket: config.FILES_S3_BUCKET,
    publicBucket: config.FILES_S3_PUBLIC_BUCKET!,
    publicBaseUrl: config.FILES_PUBLIC_BASE_URL!,
  };
}

let cached: { config: Config; store: S3FileStore } | undefined;

/** The store the settings choose: object storage when FILES_S3_BUCKET is set, else the local volume. */
export function getFileStore(config = getConfig()): FileStore {
  return getObjectStore(config) ?? new LocalFileStore(config.filesDir);
}

/** The local volume under DATA_DIR/files (also where scratch files live with either store). */
export function getLocalFileStore(): LocalFileStore {
  return new LocalFileStore(getConfig().filesDir);
}

/** The object store when one is configured (for presigned and public URLs), else null. */
export function getObjectStore(config = getConfig()): S3FileStore | null {
  const settings = objectStorageSettings(config);
  if (!settings) return null;
  if (cached?.config !== config) {
    cached = {
      config,
      store: new S3FileStore(s3Client(settings), settings, getDb(), config.filesDir),
    };
  }
  return cached.store;
}
