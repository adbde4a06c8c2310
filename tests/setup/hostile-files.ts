import zlib from "node:zlib";

/**
 * Small files that cost a decoder far more than their size: what an attacker
 * would send as a drawn signature or an uploaded model release.
 */

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const typed = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(typed));
  return Buffer.concat([length, typed, crc]);
}

/**
 * A valid, all-black 8-bit greyscale PNG of `width` × `height` pixels: its
 * rows of zeros compress about 1000 to 1, so 8000 × 8000 (64 MB of pixels,
 * 256 MB as RGBA) is a file of about 60 KB.
 */
export function pngDeclaring(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // greyscale
  const rows = zlib.deflateSync(Buffer.alloc((width + 1) * height), { level: 9 });
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk("IHDR", header),
    pngChunk("IDAT", rows),
    pngChunk("IEND", Buffer.alloc(0)),
  ]);
}

/** A PNG data URL, as the release form's canvas sends it. */
export function pngDataUrl(png: Buffer): string {
  return `data:image/png;base64,${png.toString("base64")}`;
}

/** A PDF of one page with `extra` objects after the catalog, the page tree and the page, and a classic cross-reference table. */
function pdfWith(extra: Buffer[]): Buffer {
  const objects = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>", "latin1"),
    Buffer.from("<< /Type /Pages /Kids [3 0 R] /Count 1 >>", "latin1"),
    Buffer.from("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>", "latin1"),
    ...extra,
  ];
  const parts = [Buffer.from("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "latin1")];
  let offset = parts[0].length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(offset);
    const object = Buffer.concat([
      Buffer.from(`${index + 1} 0 obj\n`, "latin1"),
      body,
      Buffer.from("\nendobj\n", "latin1"),
    ]);
    parts.push(object);
    offset += object.length;
  });
  const xref =
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
    offsets.map((at) => `${String(at).padStart(10, "0")} 00000 n \n`).join("") +
    `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
  parts.push(Buffer.from(xref, "latin1"));
  return Buffer.concat(parts);
}

/**
 * A one-page PDF with an object stream that inflates to `megabytes` MB of
 * spaces (about 1000 to 1: 64 MB is a file of about 65 KB). pdf-lib inflates
 * object streams whole, in JavaScript, when it opens a file.
 */
export function pdfWithObjectStreamBomb(megabytes: number): Buffer {
  const packed = zlib.deflateSync(Buffer.alloc(megabytes * 1024 * 1024, 0x20), { level: 9 });
  const stream = Buffer.concat([
    Buffer.from(
      `<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length ${packed.length} >>\nstream\n`,
      "latin1",
    ),
    packed,
    Buffer.from("\nendstream", "latin1"),
  ]);
  return pdfWith([stream]);
}

/** A one-page PDF with `count` more small objects (arrays of three numbers): 50,000 make 2.3 MB. */
export function pdfWithManyObjects(count: number): Buffer {
  const object = Buffer.from("[1 2 3]", "latin1");
  return pdfWith(Array.from({ length: count }, () => object));
}

/** A JUMBF box: its length, type and payload. */
function jumbfBox(type: string, payload: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + payload.length, 0);
  header.write(type, 4, "latin1");
  return Buffer.concat([header, payload]);
}

/** A JUMBF superbox (`jumb`) of the C2PA manifest store's type, labelled `label`, holding `boxes`. */
export function jumbfSuperbox(label: string, boxes: Buffer[], uuid = C2PA_STORE_UUID): Buffer {
  const description = jumbfBox(
    "jumd",
    Buffer.concat([uuid, Buffer.from([0x03]), Buffer.from(`${label}\0`, "latin1")]),
  );
  return jumbfBox("jumb", Buffer.concat([description, ...boxes]));
}

/** The C2PA manifest store's JUMBF type (c2pa). */
const C2PA_STORE_UUID = Buffer.from("6332706100110010800000aa00389b71", "hex");

/** A CBOR content box holding `cbor` (raw bytes, as hostile as the caller makes them). */
export function jumbfCborBox(cbor: Buffer): Buffer {
  return jumbfBox("cbor", cbor);
}

/**
 * A JPEG carrying `jumbf` as its manifest store, in APP11 segments as C2PA
 * lays it (JPEG XT: "JP", box instance 1, sequence numbers from 1, each
 * segment repeating the box's 8-byte header).
 */
export function jpegWithJumbf(jpeg: Buffer, jumbf: Buffer): Buffer {
  const header = jumbf.subarray(0, 8);
  const body = jumbf.subarray(8);
  const segments: Buffer[] = [];
  const room = 65_535 - 2 - 8 - 8;
  for (let at = 0, sequence = 1; at < body.length || sequence === 1; at += room, sequence++) {
    const part = body.subarray(at, at + room);
    const length = Buffer.alloc(2);
    length.writeUInt16BE(2 + 8 + 8 + part.length);
    const ci = Buffer.from([0x4a, 0x50, 0x00, 0x01, 0, 0, 0, 0]);
    ci.writeUInt32BE(sequence, 4);
    segments.push(Buffer.concat([Buffer.from([0xff, 0xeb]), length, ci, header, part]));
  }
  return Buffer.concat([jpeg.subarray(0, 2), ...segments, jpeg.subarray(2)]);
}

/** A manifest store whose superboxes nest `depth` deep (written in one pass: each level's header, then the innermost). */
export function deeplyNestedJumbf(depth: number): Buffer {
  const description = jumbfBox(
    "jumd",
    Buffer.concat([C2PA_STORE_UUID, Buffer.from([0x03]), Buffer.from("c2pa.deep\0", "latin1")]),
  );
  const level = 8 + description.length;
  const total = level * (depth + 1);
  const out = Buffer.alloc(total);
  for (let index = 0; index <= depth; index++) {
    const at = index * level;
    out.writeUInt32BE(total - at, at);
    out.write("jumb", at + 4, "latin1");
    description.copy(out, at + 8);
  }
  return out;
}

/** A manifest store with a CBOR box declaring an array of 2^32 - 1 items in a few bytes. */
export function cborBombJumbf(): Buffer {
  const claim = jumbfSuperbox(
    "c2pa.claim.v2",
    [jumbfCborBox(Buffer.from([0x9b, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x00]))],
    Buffer.from("6332636c00110010800000aa00389b71", "hex"),
  );
  const manifest = jumbfSuperbox(
    "urn:c2pa:00000000-0000-4000-8000-000000000000",
    [claim],
    Buffer.from("63326d6100110010800000aa00389b71", "hex"),
  );
  return jumbfSuperbox("c2pa", [manifest]);
}
