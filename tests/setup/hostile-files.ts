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
