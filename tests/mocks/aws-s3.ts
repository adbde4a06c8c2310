import crypto from "node:crypto";
import { http, HttpResponse } from "msw";

/**
 * msw handlers answering as AWS S3 itself answers an IAM user whose policy
 * allows s3:GetObject and s3:PutObject on the buckets' objects but not
 * s3:ListBucket on the buckets (the policy our docs gave before it was
 * added). What AWS documents (HeadObject and GetObject, "Permissions"):
 *
 * - without s3:ListBucket, a key with no object answers 403, not 404: HEAD
 *   with no body at all ("if the HEAD request generates an error, it returns
 *   a generic code ... It's not possible to retrieve the exact exception"),
 *   GET with the XML error body `<Error><Code>AccessDenied</Code>...`;
 * - an access key AWS does not know is refused with 403 too: HEAD with no
 *   body, GET with `<Code>InvalidAccessKeyId</Code>`;
 * - a ranged GET (Range: bytes=0-0) of a stored object answers 206 with
 *   Content-Range `bytes 0-0/<size>`.
 *
 * Requests reach https://<bucket>.s3.<region>.amazonaws.com/<key> (virtual
 * hosted) or https://s3.<region>.amazonaws.com/<bucket>/<key> (path style).
 * The signature is not checked: only the access key id in the Authorization
 * header (`Credential=<id>/...`) is compared with `accessKeyId`.
 */
export interface AwsS3Mock {
  handlers: ReturnType<typeof http.all>[];
  /** Stored objects by `<bucket>/<key>`. */
  objects: Map<string, { body: Buffer; contentType: string }>;
  /** Every request as `<METHOD> <bucket>/<key>`, in order. */
  requests: string[];
}

export function awsS3Mock(options: { accessKeyId: string; region: string }): AwsS3Mock {
  const objects: AwsS3Mock["objects"] = new Map();
  const requests: string[] = [];
  const host = new RegExp(`^https://([a-z0-9.-]+\\.)?s3\\.${options.region}\\.amazonaws\\.com/`);
  const handler = http.all(host, async ({ request }) => {
    const url = new URL(request.url);
    const virtual = url.hostname.match(/^(.+)\.s3\.[^.]+\.amazonaws\.com$/);
    const path = decodeURIComponent(url.pathname.slice(1));
    const [bucket, key] = virtual
      ? [virtual[1], path]
      : [path.slice(0, path.indexOf("/")), path.slice(path.indexOf("/") + 1)];
    const name = `${bucket}/${key}`;
    requests.push(`${request.method} ${name}`);
    const requestId = crypto.randomBytes(8).toString("hex").toUpperCase();
    const refuse = (code: string, message: string) =>
      request.method === "HEAD"
        ? new HttpResponse(null, { status: 403, headers: { "x-amz-request-id": requestId } })
        : new HttpResponse(
            `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${requestId}</RequestId><HostId>${requestId}</HostId></Error>`,
            {
              status: 403,
              headers: { "content-type": "application/xml", "x-amz-request-id": requestId },
            },
          );
    const credential = request.headers.get("authorization")?.match(/Credential=([^/]+)\//)?.[1];
    if (credential !== options.accessKeyId)
      return refuse(
        "InvalidAccessKeyId",
        "The AWS Access Key Id you provided does not exist in our records.",
      );
    if (request.method === "PUT") {
      const body = Buffer.from(await request.arrayBuffer());
      objects.set(name, {
        body,
        contentType: request.headers.get("content-type") ?? "binary/octet-stream",
      });
      const etag = `"${crypto.createHash("md5").update(body).digest("hex")}"`;
      return new HttpResponse(null, { status: 200, headers: { etag } });
    }
    const object = objects.get(name);
    // Without s3:ListBucket a missing key is refused, never "not found".
    if (!object) return refuse("AccessDenied", "Access Denied");
    const headers = {
      "content-type": object.contentType,
      "content-length": String(object.body.length),
      "x-amz-request-id": requestId,
    };
    if (request.method === "HEAD") return new HttpResponse(null, { status: 200, headers });
    const range = request.headers.get("range")?.match(/^bytes=(\d+)-(\d+)$/);
    if (request.method === "GET" && range) {
      const [start, end] = [Number(range[1]), Math.min(Number(range[2]), object.body.length - 1)];
      const part = object.body.subarray(start, end + 1);
      return new HttpResponse(part, {
        status: 206,
        headers: {
          ...headers,
          "content-length": String(part.length),
          "content-range": `bytes ${start}-${end}/${object.body.length}`,
        },
      });
    }
    if (request.method === "GET") return new HttpResponse(object.body, { status: 200, headers });
    return new HttpResponse(null, { status: 405 });
  });
  return { handlers: [handler], objects, requests };
}
