/**
 * Reads a byte stream to its end, but never more than `maxBytes` of it: past
 * that, the rest is cancelled (not awaited: a cancel may wait on other readers
 * of a teed body) and the error `tooLarge()` makes is thrown.
 */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  tooLarge: (seen: number) => Error,
): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      reader.cancel().catch(() => undefined);
      throw tooLarge(total);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, total);
}
