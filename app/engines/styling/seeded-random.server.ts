import crypto from "node:crypto";

/**
 * A small deterministic pseudo-random generator (sfc32) seeded from a hash of
 * some bytes (in one or more pieces), so "random" decorations are the same
 * every time for the same picture.
 */
export function seededRandom(...seedBytes: Uint8Array[]): () => number {
  const hash = crypto.createHash("sha256");
  for (const bytes of seedBytes) hash.update(bytes);
  const digest = hash.digest();
  let a = digest.readUInt32LE(0);
  let b = digest.readUInt32LE(4);
  let c = digest.readUInt32LE(8);
  let d = digest.readUInt32LE(12);
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4294967296;
  };
}
