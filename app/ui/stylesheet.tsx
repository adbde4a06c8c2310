import { createContext, useContext } from "react";
import { useNonce } from "./nonce";

/** The text of a stylesheet of the build by its URL, or null when the page should link to it instead. */
export type StylesheetText = (href: string) => string | null;

/**
 * In the browser: the text the server put in the page for `href`, as the
 * document holds it, so hydration renders the same element (null when the
 * server linked to the file).
 */
function inlinedInDocument(href: string): string | null {
  if (typeof document === "undefined") return null;
  for (const element of document.querySelectorAll("style[data-href]"))
    if (element.getAttribute("data-href") === href) return element.textContent;
  return null;
}

const StylesheetTextContext = createContext<StylesheetText>(inlinedInDocument);
/** Given by the server entry: the build's stylesheets read from disk. */
export const StylesheetTextProvider = StylesheetTextContext.Provider;

/** A `</style` in the text would end the element early; `\/` is the same character to CSS. */
const escapeStyleEnd = (text: string) => text.replace(/<\/(style)/gi, "<\\/$1");

/**
 * The page's stylesheet carried inline, under this response's CSP nonce, so
 * the first paint waits for the HTML alone and not for a second request that
 * shares a slow link with the scripts' (docs/decisions/104). When its text is
 * unknown (a server without the built files), an ordinary link to it.
 */
export function Stylesheet({ href }: { href: string }) {
  const nonce = useNonce();
  const text = useContext(StylesheetTextContext)(href);
  if (text === null) return <link rel="stylesheet" href={href} />;
  return (
    <style
      nonce={nonce || undefined}
      data-href={href}
      dangerouslySetInnerHTML={{ __html: escapeStyleEnd(text) }}
    />
  );
}
