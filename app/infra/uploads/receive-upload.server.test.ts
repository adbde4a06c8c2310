import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { HttpError } from "~/infra/errors.server";
import { receiveFileUpload } from "~/infra/uploads/receive-upload.server";
import type { ReceiveOptions, ReceivedFile } from "~/infra/uploads/receive-upload.server";

const MESSAGES = { tooLarge: "Too large.", missing: "No file.", notMultipart: "Not multipart." };

let dir: string;
let scratchCount = 0;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "receive-upload-"));
});

afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A body served in the given chunk sizes, pulled one chunk at a time like a network stream. */
function chunkedStream(
  body: Buffer,
  chunkSizes: (index: number) => number,
  onPull?: (pulled: number) => void,
): ReadableStream<Uint8Array> {
  let offset = 0;
  let index = 0;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        onPull?.(offset);
        if (offset >= body.length) return controller.close();
        const size = Math.max(1, chunkSizes(index++));
        controller.enqueue(body.subarray(offset, offset + size));
        offset += size;
      },
    },
    { highWaterMark: 0 },
  );
}

interface Upload {
  body: Buffer | ReadableStream<Uint8Array> | null;
  contentType?: string | null;
  contentLength?: number;
  chunkSizes?: (index: number) => number;
}

function receive(upload: Upload, options: Partial<ReceiveOptions> = {}): Promise<ReceivedFile> {
  const headers = new Headers();
  if (upload.contentType !== null)
    headers.set("Content-Type", upload.contentType ?? "multipart/form-data; boundary=b");
  if (upload.contentLength !== undefined)
    headers.set("Content-Length", String(upload.contentLength));
  const body = Buffer.isBuffer(upload.body)
    ? chunkedStream(upload.body, upload.chunkSizes ?? (() => 64 * 1024))
    : upload.body;
  return receiveFileUpload(
    { headers, body },
    {
      field: "image",
      maxFileBytes: 1024 * 1024,
      scratchPath: async () => path.join(dir, `upload-${++scratchCount}`),
      messages: MESSAGES,
      ...options,
    },
  );
}

/** Receives, expects an HttpError, and answers its status and message. */
async function refusal(
  upload: Upload,
  options: Partial<ReceiveOptions> = {},
): Promise<{ status: number; message: string }> {
  const error = await receive(upload, options).then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(HttpError);
  const { status, message } = error as HttpError;
  return { status, message };
}

const scratchLeft = () => fs.readdirSync(dir);

/** The body and boundary undici produces for a FormData, as a browser would send it. */
async function encode(form: FormData): Promise<{ body: Buffer; contentType: string }> {
  const request = new Request("http://localhost/", { method: "POST", body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get("Content-Type")!,
  };
}

/** One part with the given header lines and data. */
const part = (boundary: string, headers: string, data: Buffer | string) =>
  Buffer.concat([
    Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`),
    Buffer.from(data),
    Buffer.from("\r\n"),
  ]);
const fileHeaders = (name = "image", filename = "selfie.png") =>
  `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: image/png`;
const close = (boundary: string) => Buffer.from(`--${boundary}--\r\n`);

describe("receiveFileUpload: the Content-Type", () => {
  it("reads plain and quoted boundaries of multipart/form-data only", async () => {
    const data = Buffer.from("a file");
    const body = (boundary: string) =>
      Buffer.concat([part(boundary, fileHeaders(), data), close(boundary)]);

    const plain = await receive({
      body: body("abc123"),
      contentType: "multipart/form-data; boundary=abc123",
    });
    expect(fs.readFileSync(plain.path).equals(data)).toBe(true);
    const quoted = await receive({
      body: body("a b:c"),
      contentType: 'Multipart/Form-Data; charset=utf-8; boundary="a b:c"',
    });
    expect(fs.readFileSync(quoted.path).equals(data)).toBe(true);
    const longest = "x".repeat(70);
    expect(
      (
        await receive({
          body: body(longest),
          contentType: `multipart/form-data; boundary=${longest}`,
        })
      ).bytes,
    ).toBe(data.length);

    const tooLong = "x".repeat(71);
    for (const contentType of [
      "multipart/form-data",
      "multipart/mixed; boundary=abc",
      "application/json",
      "application/x-www-form-urlencoded",
      null,
      `multipart/form-data; boundary=${tooLong}`,
    ]) {
      expect(await refusal({ body: body(tooLong), contentType })).toEqual({
        status: 400,
        message: MESSAGES.notMultipart,
      });
    }
  });
});

describe("receiveFileUpload: the part headers", () => {
  it("reads name, filename (quoted, escaped or RFC 5987) and type", async () => {
    const escaped = await receive({
      body: Buffer.concat([
        part(
          "b",
          'Content-Disposition: form-data; name="image"; filename="me \\"2\\".png"\r\nContent-Type: image/png',
          "x",
        ),
        close("b"),
      ]),
    });
    expect(escaped).toMatchObject({ filename: 'me "2".png', declaredType: "image/png", bytes: 1 });

    const unquoted = await receive({
      body: Buffer.concat([
        part("b", "content-disposition: form-data; name=title", "My selfie"),
        part("b", "content-disposition: form-data; name=image; filename=a.jpg", "y"),
        close("b"),
      ]),
    });
    expect(unquoted).toMatchObject({ filename: "a.jpg", bytes: 1 });
    expect(fs.readFileSync(unquoted.path, "utf8")).toBe("y");

    const extended = await receive({
      body: Buffer.concat([
        part(
          "b",
          "Content-Disposition: form-data; name=\"image\"; filename*=UTF-8''na%C3%AFve.jpg",
          "z",
        ),
        close("b"),
      ]),
    });
    expect(extended.filename).toBe("naïve.jpg");
  });
});

describe("receiveFileUpload: the multipart framing", () => {
  it("parses what undici sends, whatever the chunking, byte for byte", async () => {
    const file = crypto.randomBytes(200_000);
    // Plant the boundary's look-alikes in the data: CRLF, dashes, a partial delimiter.
    file.set(Buffer.from("\r\n--\r\n--"), 1000);
    const form = new FormData();
    form.append("title", "My selfie ✨");
    form.append("image", new Blob([file], { type: "image/jpeg" }), "selfie.jpg");
    form.append("empty", new Blob([]), "");
    const { body, contentType } = await encode(form);

    for (const chunkSizes of [
      () => body.length,
      () => 1,
      () => 7,
      () => 64 * 1024,
      (i: number) => (i * 7919) % 4096,
    ]) {
      const received = await receive({ body, contentType, chunkSizes });
      expect(received.filename).toBe("selfie.jpg");
      expect(received.declaredType).toBe("image/jpeg");
      expect(received.bytes).toBe(file.length);
      expect(fs.readFileSync(received.path).equals(file)).toBe(true);
      fs.rmSync(received.path);
    }
  });

  it("keeps data that contains an almost-delimiter intact, ignoring the preamble and the epilogue", async () => {
    const boundary = "XyZ";
    const data = Buffer.from("start\r\n--XyStill data\r\n--X\r\nend");
    const body = Buffer.concat([
      Buffer.from(
        `preamble\r\n--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="a"\r\n\r\n`,
      ),
      data,
      Buffer.from(`\r\n--${boundary}--\r\nepilogue`),
    ]);
    for (const size of [1, 2, 3, 5, 100]) {
      const received = await receive({
        body,
        contentType: `multipart/form-data; boundary=${boundary}`,
        chunkSizes: () => size,
      });
      expect(fs.readFileSync(received.path).toString("latin1")).toBe(data.toString("latin1"));
    }
  });

  it("refuses a body that stops before its closing boundary, keeping nothing", async () => {
    const body = Buffer.from(
      '--b\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\n\r\nhalf a fi',
    );
    for (const size of [1, 5, 100]) {
      expect(await refusal({ body, chunkSizes: () => size })).toEqual({
        status: 400,
        message: "The multipart body ended before it was complete",
      });
    }
    expect(scratchLeft()).toEqual([]);
  });

  it("refuses garbage after a boundary, oversized headers and too many parts", async () => {
    expect((await refusal({ body: Buffer.from("--bXX") })).status).toBe(400);

    const big = Buffer.concat([
      part("b", `${fileHeaders()}\r\nX-Long: ${"a".repeat(20_000)}`, "x"),
      close("b"),
    ]);
    expect(await refusal({ body: big })).toEqual({
      status: 400,
      message: expect.stringMatching(/too large/),
    });
    // Just under 16 KiB of headers still passes.
    const large = Buffer.concat([
      part("b", `${fileHeaders()}\r\nX-Long: ${"a".repeat(16_000)}`, "x"),
      close("b"),
    ]);
    expect((await receive({ body: large })).bytes).toBe(1);

    const field = (i: number) => part("b", `Content-Disposition: form-data; name="f${i}"`, "1");
    const parts = (count: number) =>
      Buffer.concat([
        part("b", fileHeaders(), "x"),
        ...Array.from({ length: count - 1 }, (_, i) => field(i)),
        close("b"),
      ]);
    expect((await receive({ body: parts(32) })).bytes).toBe(1);
    expect(await refusal({ body: parts(33) })).toEqual({
      status: 400,
      message: expect.stringMatching(/Too many parts/),
    });
    const files = Buffer.concat([
      ...Array.from({ length: 33 }, (_, i) => part("b", fileHeaders(`f${i}`), "1")),
      close("b"),
    ]);
    expect(await refusal({ body: files })).toEqual({
      status: 400,
      message: expect.stringMatching(/Too many parts/),
    });
    expect(scratchLeft()).toHaveLength(2); // the two accepted uploads above
  });

  it("reads the body only as fast as the file is written: never more than a few chunks ahead of the disk", async () => {
    const chunk = 64 * 1024;
    const head = Buffer.from(
      `--b\r\nContent-Disposition: form-data; name="image"; filename="big"\r\n\r\n`,
    );
    const body = Buffer.concat([head, Buffer.alloc(100 * chunk, 7), Buffer.from("\r\n--b--\r\n")]);
    const scratch = path.join(dir, "flat");
    let ahead = 0;
    const stream = chunkedStream(
      body,
      (i) => (i === 0 ? head.length : chunk),
      (pulled) => {
        const written = fs.existsSync(scratch) ? fs.statSync(scratch).size : 0;
        ahead = Math.max(ahead, pulled - head.length - written);
      },
    );
    const received = await receive(
      { body: stream },
      { maxFileBytes: 16 * 1024 * 1024, scratchPath: async () => scratch },
    );
    expect(received.bytes).toBe(100 * chunk);
    // busboy's input and file stream each hold at most about one chunk; nothing grows with the upload.
    expect(ahead).toBeLessThanOrEqual(2 * chunk);
  });
});

describe("receiveFileUpload: the file", () => {
  it("keeps the first file part of the field, ignoring other fields' files and later ones", async () => {
    const received = await receive({
      body: Buffer.concat([
        part("b", fileHeaders("photo"), "not this"),
        part("b", fileHeaders("image", "first.png"), "this one"),
        part("b", fileHeaders("image", "second.png"), "nor this"),
        close("b"),
      ]),
    });
    expect(received).toMatchObject({ filename: "first.png", bytes: 8 });
    expect(fs.readFileSync(received.path, "utf8")).toBe("this one");
    expect(scratchLeft()).toEqual([path.basename(received.path)]);
  });

  it("counts an empty file part, or none in the field, as a missing file", async () => {
    // What a browser sends for a file input left empty; a later file in the field is not looked at.
    const unchosen = part(
      "b",
      'Content-Disposition: form-data; name="image"; filename=""\r\nContent-Type: application/octet-stream',
      "",
    );
    const empty = Buffer.concat([
      unchosen,
      part("b", fileHeaders("image", "late.png"), "x"),
      close("b"),
    ]);
    expect(await refusal({ body: empty })).toEqual({ status: 400, message: MESSAGES.missing });
    const elsewhere = Buffer.concat([part("b", fileHeaders("photo"), "x"), close("b")]);
    expect(await refusal({ body: elsewhere })).toEqual({ status: 400, message: MESSAGES.missing });
    expect(await refusal({ body: close("b") })).toEqual({ status: 400, message: MESSAGES.missing });
    expect(await refusal({ body: null })).toEqual({ status: 400, message: MESSAGES.missing });
    expect(scratchLeft()).toEqual([]);
  });

  it("takes a file of exactly the limit, and refuses one byte more with the message, keeping nothing", async () => {
    const limit = 100_000;
    const body = (bytes: number) =>
      Buffer.concat([part("b", fileHeaders(), Buffer.alloc(bytes, 1)), close("b")]);
    for (const size of [1, 4096, 64 * 1024]) {
      const exact = await receive(
        { body: body(limit), chunkSizes: () => size },
        { maxFileBytes: limit },
      );
      expect(fs.statSync(exact.path).size).toBe(limit);
      fs.rmSync(exact.path);
      expect(
        await refusal({ body: body(limit + 1), chunkSizes: () => size }, { maxFileBytes: limit }),
      ).toEqual({
        status: 413,
        message: MESSAGES.tooLarge,
      });
    }
    expect(scratchLeft()).toEqual([]);
  });

  it("counts every byte of the body, epilogue and other fields included, against the file limit plus the overhead", async () => {
    const file = part("b", fileHeaders(), "x");
    const padded = (bytes: number) => Buffer.concat([file, close("b"), Buffer.alloc(bytes, 0x20)]);
    const within = await receive(
      { body: padded(1000) },
      { maxFileBytes: 1000, overheadBytes: 1000 },
    );
    expect(within.bytes).toBe(1);
    expect(
      await refusal({ body: padded(2000) }, { maxFileBytes: 1000, overheadBytes: 1000 }),
    ).toEqual({
      status: 413,
      message: MESSAGES.tooLarge,
    });
    const field = Buffer.concat([
      part("b", 'Content-Disposition: form-data; name="title"', "t".repeat(3000)),
      file,
      close("b"),
    ]);
    expect(await refusal({ body: field }, { maxFileBytes: 1000, overheadBytes: 1000 })).toEqual({
      status: 413,
      message: MESSAGES.tooLarge,
    });
  });
});

describe("receiveFileUpload: refused bodies", () => {
  /** A stream of `total` bytes that records how much was pulled and whether it was cancelled. */
  function countingStream(head: Buffer, total: number) {
    let sent = 0;
    let cancelled = false;
    const stream = new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          if (sent >= total) return controller.close();
          const piece = sent === 0 ? head : Buffer.alloc(Math.min(64 * 1024, total - sent), 0x41);
          sent += piece.length;
          controller.enqueue(piece);
        },
        cancel() {
          cancelled = true;
        },
      },
      { highWaterMark: 0 },
    );
    return { stream, pulled: () => sent, cancelled: () => cancelled };
  }
  const head = Buffer.from(`--b\r\n${fileHeaders()}\r\n\r\n`);
  const settle = async (done: () => boolean) => {
    const started = Date.now();
    while (!done() && Date.now() - started < 5000)
      await new Promise((resolve) => setTimeout(resolve, 5));
  };

  it("refuses a declared length past the limit before reading a byte, then drains a bounded amount", async () => {
    const body = countingStream(head, 4 * 1024 * 1024);
    expect(
      await refusal(
        { body: body.stream, contentLength: 4 * 1024 * 1024 },
        { maxFileBytes: 1000, drainBytes: 1024 * 1024 },
      ),
    ).toEqual({ status: 413, message: MESSAGES.tooLarge });
    await settle(body.cancelled);
    expect(body.cancelled()).toBe(true);
    expect(body.pulled()).toBeLessThan(1024 * 1024 + 2 * 64 * 1024);
  });

  it("stops reading soon after the limit, drains up to drainBytes, then cancels the rest", async () => {
    const limit = 100_000;
    const undrained = countingStream(head, 8 * 1024 * 1024);
    expect(
      await refusal({ body: undrained.stream }, { maxFileBytes: limit, drainBytes: 0 }),
    ).toEqual({
      status: 413,
      message: MESSAGES.tooLarge,
    });
    await settle(undrained.cancelled);
    expect(undrained.cancelled()).toBe(true);
    expect(undrained.pulled()).toBeLessThan(limit + 4 * 64 * 1024);

    const drained = countingStream(head, 8 * 1024 * 1024);
    expect(
      (await refusal({ body: drained.stream }, { maxFileBytes: limit, drainBytes: 1024 * 1024 }))
        .status,
    ).toBe(413);
    await settle(drained.cancelled);
    expect(drained.cancelled()).toBe(true);
    expect(drained.pulled()).toBeGreaterThan(1024 * 1024);
    expect(drained.pulled()).toBeLessThan(limit + 1024 * 1024 + 4 * 64 * 1024);
    expect(scratchLeft()).toEqual([]);
  });

  it("drains the body when admission fails, and passes the error on", async () => {
    const body = countingStream(head, 512 * 1024);
    const refused = new Error("over quota");
    await expect(
      receive(
        { body: body.stream },
        {
          admit: async () => {
            throw refused;
          },
        },
      ),
    ).rejects.toBe(refused);
    await settle(() => body.pulled() >= 512 * 1024);
    expect(body.pulled()).toBe(512 * 1024);
    expect(scratchLeft()).toEqual([]);
  });
});
