import { escapeHtml } from "~/lib/html";

/** A short, self-contained HTML page (no scripts, no styles to load): a title, plain paragraphs and a way back. */
export function shortPageHtml(
  title: string,
  paragraphs: string[],
  back: { href: string; label: string } = { href: "/", label: "Back to the home page" },
): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title></head>` +
    `<body><main><h1>${escapeHtml(title)}</h1>${paragraphs.map((text) => `<p>${escapeHtml(text)}</p>`).join("")}` +
    `<p><a href="${escapeHtml(back.href)}">${escapeHtml(back.label)}</a></p></main></body></html>`
  );
}

/** A short page as a response that no cache keeps and no search engine indexes. */
export function shortPageResponse(html: string, status: number): Response {
  return new Response(html, {
    status,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-store",
      "X-Robots-Tag": "noindex",
    },
  });
}
