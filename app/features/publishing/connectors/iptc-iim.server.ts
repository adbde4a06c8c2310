/**
 * IPTC IIM (the older binary form of the IPTC fields, still read by stock
 * agencies and photo tools beside XMP): the title, headline, caption,
 * keywords, by-line and copyright, in UTF-8, written into a JPEG as a
 * Photoshop APP13 segment. sharp writes XMP and EXIF but not IIM, so this
 * builds the segment itself.
 */

export interface IimFields {
  title: string;
  headline: string;
  caption: string;
  keywords: string[];
  byline: string;
  copyright: string;
}

/** The longest value IIM allows in each field, in bytes (callers cut their text to these first, so it reads the same everywhere). */
export const IIM_LIMITS = {
  title: 64,
  headline: 256,
  caption: 2000,
  keyword: 64,
  byline: 32,
  copyright: 128,
} as const;

/** Bytes of `value` in UTF-8, cut to at most `max` without splitting a character. */
function utf8(value: string, max: number): Buffer {
  const bytes = Buffer.from(value, "utf8");
  if (bytes.length <= max) return bytes;
  let end = max;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end);
}

function dataset(record: number, tag: number, value: Buffer): Buffer {
  const head = Buffer.from([0x1c, record, tag, (value.length >> 8) & 0x7f, value.length & 0xff]);
  return Buffer.concat([head, value]);
}

/** The IIM records (1:90 says UTF-8; 2:xx the fields, at the lengths IIM allows). */
export function iimRecords(fields: IimFields): Buffer {
  return Buffer.concat([
    dataset(1, 90, Buffer.from([0x1b, 0x25, 0x47])),
    dataset(2, 0, Buffer.from([0x00, 0x04])),
    dataset(2, 5, utf8(fields.title, IIM_LIMITS.title)),
    dataset(2, 105, utf8(fields.headline, IIM_LIMITS.headline)),
    dataset(2, 120, utf8(fields.caption, IIM_LIMITS.caption)),
    ...fields.keywords.map((keyword) => dataset(2, 25, utf8(keyword, IIM_LIMITS.keyword))),
    dataset(2, 80, utf8(fields.byline, IIM_LIMITS.byline)),
    dataset(2, 116, utf8(fields.copyright, IIM_LIMITS.copyright)),
  ]);
}

/** A JPEG with an APP13 "Photoshop 3.0" segment holding the IIM records, placed after its other APPn segments. */
export function withIptcIim(jpeg: Buffer, fields: IimFields): Buffer {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new Error("Not a JPEG");
  const iim = iimRecords(fields);
  const size = Buffer.alloc(4);
  size.writeUInt32BE(iim.length, 0);
  // 8BIM resource 0x0404 (IPTC-NAA), an empty Pascal name padded to two bytes, the size, the data padded to even.
  const resource = Buffer.concat([
    Buffer.from("8BIM"),
    Buffer.from([0x04, 0x04, 0x00, 0x00]),
    size,
    iim,
    Buffer.alloc(iim.length % 2),
  ]);
  const payload = Buffer.concat([Buffer.from("Photoshop 3.0\0", "latin1"), resource]);
  if (payload.length + 2 > 0xffff) throw new Error("IPTC block too large");
  const length = Buffer.alloc(2);
  length.writeUInt16BE(payload.length + 2, 0);
  const segment = Buffer.concat([Buffer.from([0xff, 0xed]), length, payload]);

  // Walk past SOI and the APPn (0xE0-0xEF) segments sharp wrote (JFIF, EXIF, XMP, ICC).
  let offset = 2;
  while (
    offset + 4 <= jpeg.length &&
    jpeg[offset] === 0xff &&
    jpeg[offset + 1] >= 0xe0 &&
    jpeg[offset + 1] <= 0xef
  ) {
    offset += 2 + jpeg.readUInt16BE(offset + 2);
  }
  return Buffer.concat([jpeg.subarray(0, offset), segment, jpeg.subarray(offset)]);
}

/** Reads the IIM records of a JPEG's APP13 segment back (tests and checks): record:tag → values. */
export function readIptcIim(jpeg: Buffer): Map<string, string[]> {
  const found = new Map<string, string[]>();
  let offset = 2;
  while (offset + 4 <= jpeg.length && jpeg[offset] === 0xff) {
    const marker = jpeg[offset + 1];
    const length = jpeg.readUInt16BE(offset + 2);
    if (marker === 0xed) {
      const body = jpeg.subarray(offset + 4, offset + 2 + length);
      let at = body.indexOf(Buffer.from("8BIM\x04\x04", "latin1"));
      if (at >= 0) {
        at += 6;
        const nameLength = body[at];
        at += 1 + nameLength + ((1 + nameLength) % 2);
        const size = body.readUInt32BE(at);
        at += 4;
        const end = at + size;
        while (at + 5 <= end && body[at] === 0x1c) {
          const key = `${body[at + 1]}:${body[at + 2]}`;
          const len = body.readUInt16BE(at + 3);
          const value = body.subarray(at + 5, at + 5 + len).toString("utf8");
          found.set(key, [...(found.get(key) ?? []), value]);
          at += 5 + len;
        }
      }
    }
    if (marker === 0xda) break;
    offset += 2 + length;
  }
  return found;
}
