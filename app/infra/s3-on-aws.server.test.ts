import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { awsS3Mock } from "#tests/mocks/aws-s3";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { newFileKey } from "~/infra/file-keys.server";
import { S3FileStore, s3Client, type S3Settings } from "~/infra/s3-file-store.server";
import { ensureStyleSamples, styleSampleKey } from "~/engines/styling/style-samples.server";
import { STYLE_IDS } from "~/lib/styles";

// AWS S3 itself (no endpoint) and an IAM user without s3:ListBucket, answered at the HTTP edge.
const REGION = "eu-west-1";
const ACCESS_KEY_ID = "AKIAIOSFODNN7EXAMPLE";
const aws = awsS3Mock({ accessKeyId: ACCESS_KEY_ID, region: REGION });
const server = setupServer(...aws.handlers);
beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterEach(() => {
  server.resetHandlers();
  aws.objects.clear();
  aws.requests.length = 0;
});
afterAll(() => server.close());

const settings: S3Settings = {
  region: REGION,
  accessKeyId: ACCESS_KEY_ID,
  secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
  forcePathStyle: false,
  bucket: "selfie-files",
  publicBucket: "selfie-public",
  publicBaseUrl: "https://cdn.selfie.example",
};
const storeWith = (overrides: Partial<S3Settings> = {}) => {
  const chosen = { ...settings, ...overrides };
  return new S3FileStore(s3Client(chosen), chosen, getDb(), getConfig().filesDir);
};

describe("the S3 store on AWS S3 without s3:ListBucket (403 for a missing key)", () => {
  it("takes a HEAD 403 that the GET names AccessDenied for a missing key, and finds a stored one", async () => {
    const store = storeWith();
    const key = newFileKey("previews", "jpg");
    expect(await store.exists(key)).toBe(false);
    expect(aws.requests).toEqual([`HEAD selfie-public/${key}`, `GET selfie-public/${key}`]);

    await store.write(key, Buffer.from("preview bytes"));
    aws.requests.length = 0;
    expect(await store.exists(key)).toBe(true);
    // A stored object costs one HEAD, as before.
    expect(aws.requests).toEqual([`HEAD selfie-public/${key}`]);
  });

  it("makes the landing samples at the first start, and finds them at the next", async () => {
    const store = storeWith();
    const lines: string[] = [];
    const first = await ensureStyleSamples({ store, log: (line) => lines.push(line) });
    expect(first.created).toEqual([...STYLE_IDS]);
    expect(lines).toEqual([`Made the landing page's style samples: ${STYLE_IDS.join(", ")}.`]);
    for (const style of STYLE_IDS)
      expect(aws.objects.get(`selfie-public/${styleSampleKey(style)}`)?.contentType).toBe(
        "image/jpeg",
      );

    const next = await ensureStyleSamples({ store, log: (line) => lines.push(line) });
    expect(next.created).toEqual([]);
  });

  it("is reachable: a missing probe key is an answer there too", async () => {
    expect(await storeWith().isReachable()).toBe(true);
  });

  it("still refuses wrong credentials: the GET names InvalidAccessKeyId, and the store is not reachable", async () => {
    const store = storeWith({ accessKeyId: "AKIANOTKNOWNTOAWS000" });
    await expect(store.exists(newFileKey("styled", "png"))).rejects.toMatchObject({
      name: "ObjectStoreError",
      message: "File storage refused looking up a file: InvalidAccessKeyId (HTTP 403)",
    });
    expect(await store.isReachable()).toBe(false);
  });

  it("keeps a 403 on reading content that must be there an error, not a missing file", async () => {
    const store = storeWith();
    const key = newFileKey("listings", "jpg");
    const refusal = store.read(key);
    await expect(refusal).rejects.toMatchObject({
      name: "ObjectStoreError",
      message: "File storage refused reading a file: AccessDenied (HTTP 403)",
    });
    await expect(refusal).rejects.not.toHaveProperty("code", "ENOENT");
    await expect(store.size(key)).rejects.toMatchObject({ name: "ObjectStoreError" });
  });

  it("takes a missing bucket for a setting to fix, never for a missing file", async () => {
    server.use(
      http.get(
        /amazonaws\.com/,
        () =>
          new HttpResponse(
            `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message><BucketName>selfie-files</BucketName><RequestId>R</RequestId><HostId>H</HostId></Error>`,
            { status: 404, headers: { "content-type": "application/xml" } },
          ),
      ),
    );
    await expect(storeWith().read(newFileKey("styled", "png"))).rejects.toMatchObject({
      name: "ObjectStoreError",
      message: "File storage refused reading a file: NoSuchBucket (HTTP 404)",
    });
  });
});
