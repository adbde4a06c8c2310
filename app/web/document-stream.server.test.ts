import { Readable } from "node:stream";
import { text } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { documentStream } from "./document-stream.server";

/** A document's end as Remix's <Scripts> writes it, with text that is several bytes a character. */
const DOCUMENT =
  '<p title="width × height">Größe — 1 × 2 ✓</p>' +
  '<link rel="modulepreload" href="/build/manifest-A.js"/>' +
  '<link rel="modulepreload" href="/build/_shared/chunk-B.js"/>' +
  '<script nonce="n0nce">window.__remixContext = {"a":"x\\u003cy"};</script>' +
  '<script nonce="n0nce" type="module" async="">import "/build/manifest-A.js";</script>' +
  "<p>a &lt; b</p></body></html>";

const EXPECTED =
  '<p title="width × height">Größe — 1 × 2 ✓</p>' +
  '<link rel="modulepreload" fetchpriority="low" href="/build/manifest-A.js"/>' +
  '<link rel="modulepreload" fetchpriority="low" href="/build/_shared/chunk-B.js"/>' +
  '<script nonce="n0nce">window.__remixContext = {"a":"x\\u003cy"};</script>' +
  '<script nonce="n0nce" type="module" fetchpriority="low" async="">import "/build/manifest-A.js";</script>' +
  "<p>a &lt; b</p></body></html>";

async function through(chunks: Uint8Array[]): Promise<string> {
  return text(Readable.from(chunks).pipe(documentStream()));
}

describe("documentStream", () => {
  it("asks for the module script and its preloads at low priority, and changes nothing else", async () => {
    expect(await through([Buffer.from(DOCUMENT)])).toBe(EXPECTED);
  });

  it("gives the same bytes wherever the renderer's chunks cut the document, inside a tag or a character", async () => {
    const bytes = Buffer.from(DOCUMENT);
    for (let cut = 1; cut < bytes.length; cut++) {
      const answer = await through([bytes.subarray(0, cut), bytes.subarray(cut)]);
      expect(answer, `cut at byte ${cut}`).toBe(EXPECTED);
    }
  });

  it("drops the NUL bytes React 18 leaves at a buffer's end before a character of several bytes", async () => {
    // As React 18 sends it: a 2 KB buffer whose last two bytes are unused (a "×" did not fit), then the next.
    const first = Buffer.concat([Buffer.from('<p title="width '), Buffer.alloc(2)]);
    const second = Buffer.from('× height">x</p>');
    expect(await through([first, second])).toBe('<p title="width × height">x</p>');
  });

  it("passes a page without Remix's scripts through unchanged, however it is cut", async () => {
    const page = "<!DOCTYPE html><html><body><p>1 < 2 — ✓</p></body></html>";
    const bytes = Buffer.from(page);
    const chunks = [...bytes].map((byte) => Uint8Array.of(byte));
    expect(await through(chunks)).toBe(page);
  });
});
