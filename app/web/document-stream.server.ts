import { Transform } from "node:stream";
import { StringDecoder } from "node:string_decoder";

/**
 * What changes in the rendered document on its way out. Remix's `<Scripts>`
 * writes the module script and a module preload for each of the page's
 * scripts; they are asked for at low priority, so the stylesheet and the
 * page's largest image are fetched first on a slow link (decision 105). The
 * page still hydrates before its load event: the script stays where it was,
 * parsed as before, and only gains an attribute.
 */
const LOW_PRIORITY: readonly [RegExp, string][] = [
  [/<link rel="modulepreload"/g, '<link rel="modulepreload" fetchpriority="low"'],
  // The module script: `<script nonce="…" type="module" async="">` (its props, then its type).
  [/(<script(?: nonce="[^"]*")? )type="module"/g, '$1type="module" fetchpriority="low"'],
];

/**
 * React 18's streaming renderer encodes into 2 KB buffers and, where a
 * character of several bytes does not fit at a buffer's end, sends the whole
 * buffer with its unused last bytes as NUL (fixed in React 19). A NUL is never
 * meaningful in HTML (the parser drops it from text and turns it into U+FFFD in
 * an attribute, a title's "×" became "�×"), so every NUL goes.
 */
const NUL = "\u0000";

function rewritten(html: string): string {
  return LOW_PRIORITY.reduce(
    (text, [pattern, replacement]) => text.replace(pattern, replacement),
    html.includes(NUL) ? html.replaceAll(NUL, "") : html,
  );
}

/**
 * The rendered document's bytes, rewritten as above. A character or a tag
 * that the renderer's chunks cut in two is held back until its end arrives,
 * so nothing is missed at a chunk's edge; the rest streams as it comes.
 */
export function documentStream(): Transform {
  // Bytes to text with a character the chunks cut in two kept whole.
  const decoder = new StringDecoder("utf8");
  let pending = "";
  return new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      const text = pending + (typeof chunk === "string" ? chunk : decoder.write(chunk));
      const lastOpen = text.lastIndexOf("<");
      const cut = lastOpen !== -1 && text.indexOf(">", lastOpen) === -1 ? lastOpen : text.length;
      pending = text.slice(cut);
      done(null, rewritten(text.slice(0, cut)));
    },
    flush(done) {
      done(null, rewritten(pending + decoder.end()));
    },
  });
}
