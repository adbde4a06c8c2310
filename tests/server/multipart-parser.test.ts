import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import type { MultipartEvent } from "~/server/uploads/multipart-parser.server";
import {
  MultipartError,
  MultipartParser,
  multipartBoundary,
  parsePartHeaders,
} from "~/server/uploads/multipart-parser.server";

/** The body and boundary undici produces for a FormData, as a browser would send it. */
async function encode(form: FormData): Promise<{ body: Buffer; boundary: string }> {
  const request = new Request("http://localhost/", { method: "POST", body: form });
  const boundary = multipartBoundary(request.headers.get("Content-Type"))!;
  return { body: Buffer.from(await request.arrayBuffer()), boundary };
}

interface Part {
  name: string | null;
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

/** Feeds `body` in the given chunk sizes and collects the parts. */
function parse(body: Buffer, boundary: string, chunkSizes: (index: number) => number): Part[] {
  const parser = new MultipartParser(boundary);
  const parts: Part[] = [];
  let current: { headers: Part; pieces: Buffer[] } | null = null;
  const handle = (events: MultipartEvent[]) => {
    for (const event of events) {
      if (event.type === "part-start") current = { headers: { ...event.headers, data: Buffer.alloc(0) }, pieces: [] };
      else if (event.type === "part-data") current!.pieces.push(Buffer.from(event.data));
      else {
        parts.push({ ...current!.headers, data: Buffer.concat(current!.pieces) });
        current = null;
      }
    }
  };
  let offset = 0;
  for (let index = 0; offset < body.length; index++) {
    const size = Math.max(1, chunkSizes(index));
    handle(parser.write(body.subarray(offset, offset + size)));
    offset += size;
  }
  parser.end();
  return parts;
}

describe("multipartBoundary", () => {
  it("reads plain and quoted boundaries of multipart/form-data only", () => {
    expect(multipartBoundary("multipart/form-data; boundary=abc123")).toBe("abc123");
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b:c"')).toBe("a b:c");
    expect(multipartBoundary("multipart/form-data")).toBeNull();
    expect(multipartBoundary("multipart/mixed; boundary=abc")).toBeNull();
    expect(multipartBoundary("application/json")).toBeNull();
    expect(multipartBoundary(null)).toBeNull();
    expect(multipartBoundary(`multipart/form-data; boundary=${"x".repeat(71)}`)).toBeNull();
  });
});

describe("parsePartHeaders", () => {
  it("reads name, filename (quoted, escaped or RFC 5987) and type", () => {
    expect(
      parsePartHeaders('Content-Disposition: form-data; name="image"; filename="me \\"2\\".png"\r\nContent-Type: image/png'),
    ).toEqual({ name: "image", filename: 'me "2".png', contentType: "image/png" });
    expect(parsePartHeaders("content-disposition: form-data; name=title")).toEqual({
      name: "title",
      filename: null,
      contentType: null,
    });
    expect(parsePartHeaders("Content-Disposition: form-data; name=\"f\"; filename*=UTF-8''na%C3%AFve.jpg").filename).toBe(
      "naïve.jpg",
    );
  });
});

describe("MultipartParser", () => {
  it("parses what undici sends, whatever the chunking, byte for byte", async () => {
    const file = crypto.randomBytes(200_000);
    // Plant the boundary's look-alikes in the data: CRLF, dashes, a partial delimiter.
    file.set(Buffer.from("\r\n--\r\n--"), 1000);
    const form = new FormData();
    form.append("title", "My selfie ✨");
    form.append("image", new Blob([file], { type: "image/jpeg" }), "selfie.jpg");
    form.append("empty", new Blob([]), "");
    const { body, boundary } = await encode(form);

    for (const sizes of [() => body.length, () => 1, () => 7, () => 64 * 1024, (i: number) => (i * 7919) % 4096]) {
      const parts = parse(body, boundary, sizes);
      expect(parts.map((part) => part.name)).toEqual(["title", "image", "empty"]);
      expect(parts[0].data.toString("utf8")).toBe("My selfie ✨");
      expect(parts[1].filename).toBe("selfie.jpg");
      expect(parts[1].contentType).toBe("image/jpeg");
      expect(parts[1].data.equals(file)).toBe(true);
      expect(parts[2].data.length).toBe(0);
    }
  });

  it("keeps data that contains an almost-delimiter intact", () => {
    const boundary = "XyZ";
    const data = Buffer.from("start\r\n--XyStill data\r\n--X\r\nend");
    const body = Buffer.concat([
      Buffer.from(`preamble\r\n--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a"\r\n\r\n`),
      data,
      Buffer.from(`\r\n--${boundary}--\r\nepilogue`),
    ]);
    for (const size of [1, 2, 3, 5, 100]) {
      const [part] = parse(body, boundary, () => size);
      expect(part.data.toString("latin1")).toBe(data.toString("latin1"));
    }
  });

  it("refuses a body that stops before its closing boundary", () => {
    const parser = new MultipartParser("b");
    parser.write(Buffer.from('--b\r\nContent-Disposition: form-data; name="image"\r\n\r\nhalf a fi'));
    expect(() => parser.end()).toThrow(MultipartError);
  });

  it("refuses garbage after a boundary, oversized headers and too many parts", () => {
    expect(() => new MultipartParser("b").write(Buffer.from("--bXX"))).toThrow(MultipartError);
    const big = Buffer.from(`--b\r\nX-Long: ${"a".repeat(20_000)}`);
    expect(() => new MultipartParser("b", { maxHeaderBytes: 16 * 1024 }).write(big)).toThrow(/too large/);
    const many = Buffer.from(`${'--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n1\r\n'.repeat(5)}--b--`);
    expect(() => new MultipartParser("b", { maxParts: 4 }).write(many)).toThrow(/Too many parts/);
  });

  it("never holds more than one chunk plus the delimiter's length", () => {
    const boundary = "----boundary";
    const parser = new MultipartParser(boundary);
    parser.write(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image"\r\n\r\n`));
    const chunk = Buffer.alloc(64 * 1024, 7);
    let emitted = 0;
    for (let i = 0; i < 200; i++) {
      for (const event of parser.write(chunk)) if (event.type === "part-data") emitted += event.data.byteLength;
      // Everything but a delimiter's worth of look-behind has been handed on.
      expect((i + 1) * chunk.length - emitted).toBeLessThan(boundary.length + 4);
    }
  });
});
