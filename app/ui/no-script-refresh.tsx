/**
 * Without JavaScript, the page reloads itself (or goes to `url`) after
 * `seconds`: a meta refresh inside <noscript>, so a page with JavaScript never
 * reloads by it (its own timer or useRevalidateWhile does the work).
 */
export function NoScriptRefresh({ seconds, url }: { seconds: number; url?: string }) {
  return (
    <noscript>
      <meta
        httpEquiv="refresh"
        content={url === undefined ? String(seconds) : `${seconds};url=${url}`}
      />
    </noscript>
  );
}
