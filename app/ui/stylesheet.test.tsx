// @vitest-environment jsdom
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, render } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { NonceProvider } from "~/ui/nonce";
import { Stylesheet, StylesheetTextProvider } from "~/ui/stylesheet";

afterEach(() => {
  cleanup();
  document.head.innerHTML = "";
});

const HREF = "/build/_assets/tailwind-ABC.css";

describe("<Stylesheet>", () => {
  it("on the server, carries the stylesheet's text inline under the response's nonce", () => {
    const html = renderToString(
      <NonceProvider value="n0nce">
        <StylesheetTextProvider value={(href) => (href === HREF ? "body{margin:0}" : null)}>
          <Stylesheet href={HREF} />
        </StylesheetTextProvider>
      </NonceProvider>,
    );
    expect(html).toBe(`<style nonce="n0nce" data-href="${HREF}">body{margin:0}</style>`);
  });

  it("never lets the text end the element early", () => {
    const html = renderToString(
      <StylesheetTextProvider value={() => 'a::after{content:"</style><script>x</script>"}'}>
        <Stylesheet href={HREF} />
      </StylesheetTextProvider>,
    );
    expect(html).not.toContain("</style><script>");
    expect(html).toContain('content:"<\\/style><script>x</script>"');
  });

  it("links to the stylesheet when its text is unknown", () => {
    const html = renderToString(
      <StylesheetTextProvider value={() => null}>
        <Stylesheet href={HREF} />
      </StylesheetTextProvider>,
    );
    expect(html).toBe(`<link rel="stylesheet" href="${HREF}"/>`);
  });

  it("in the browser, renders the text the page already holds (hydration renders what the server sent)", () => {
    document.head.innerHTML = `<style data-href="${HREF}">body{margin:0}</style>`;
    const { container } = render(<Stylesheet href={HREF} />);
    const style = container.querySelector("style");
    expect(style?.getAttribute("data-href")).toBe(HREF);
    expect(style?.textContent).toBe("body{margin:0}");
    expect(container.querySelector("link")).toBeNull();
  });

  it("in the browser, links to the stylesheet when the server did", () => {
    const { container } = render(<Stylesheet href={HREF} />);
    expect(container.querySelector("style")).toBeNull();
    expect(container.querySelector("link")?.getAttribute("href")).toBe(HREF);
  });
});
