import fs from "node:fs";
import S3rver from "@20minutes/s3rver";

/**
 * A real S3-compatible server for tests (vitest, Playwright and process
 * tests alike): @20minutes/s3rver on 127.0.0.1, keeping objects in
 * `directory`, with a private and a public bucket. It verifies SigV4
 * signatures and presigned URLs (but answers unsigned GETs: it has no
 * bucket policies). Its one key pair is S3RVER / S3RVER.
 *
 * No app code is imported, so any test process can start it:
 *   const s3 = await startS3Server({ port: 5101, directory: dir });
 *   Object.assign(process.env, s3.env);   // the app's object storage settings
 *   ...
 *   await s3.close();
 */
export interface S3ServerOptions {
  port: number;
  /** Where the objects are kept (created if missing). */
  directory: string;
  bucket?: string;
  publicBucket?: string;
}

export interface S3TestServer {
  endpoint: string;
  port: number;
  bucket: string;
  publicBucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** The app's settings for this server (AWS_*, FILES_S3_*, FILES_PUBLIC_BASE_URL). */
  env: Record<string, string>;
  close(): Promise<void>;
}

export const S3RVER_KEY = "S3RVER";

/**
 * The app's object storage settings for a server on `port`, known before it
 * starts: for `Object.assign(process.env, …)` ahead of anything that reads
 * the configuration.
 */
export function s3ServerEnv(
  port: number,
  bucket = "selfie-files",
  publicBucket = "selfie-public",
): Record<string, string> {
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    AWS_ENDPOINT_URL_S3: endpoint,
    AWS_REGION: "us-east-1",
    AWS_ACCESS_KEY_ID: S3RVER_KEY,
    AWS_SECRET_ACCESS_KEY: S3RVER_KEY,
    FILES_S3_BUCKET: bucket,
    FILES_S3_PUBLIC_BUCKET: publicBucket,
    FILES_PUBLIC_BASE_URL: `${endpoint}/${publicBucket}`,
  };
}

export async function startS3Server(options: S3ServerOptions): Promise<S3TestServer> {
  const bucket = options.bucket ?? "selfie-files";
  const publicBucket = options.publicBucket ?? "selfie-public";
  fs.mkdirSync(options.directory, { recursive: true });
  const server = new S3rver({
    address: "127.0.0.1",
    port: options.port,
    directory: options.directory,
    silent: true,
    vhostBuckets: false,
    configureBuckets: [{ name: bucket }, { name: publicBucket }],
  });
  await server.run();
  const endpoint = `http://127.0.0.1:${options.port}`;
  return {
    endpoint,
    port: options.port,
    bucket,
    publicBucket,
    accessKeyId: S3RVER_KEY,
    secretAccessKey: S3RVER_KEY,
    env: s3ServerEnv(options.port, bucket, publicBucket),
    close: () => server.close(),
  };
}
