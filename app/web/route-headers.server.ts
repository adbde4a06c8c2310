import type { HeadersFunction } from "@remix-run/node";

const FORWARDED = ["Cache-Control", "X-Robots-Tag"] as const;

/**
 * A route's `headers` export that gives its HTML document the caching and
 * robots headers its loader chose (Remix sends a loader's headers only with
 * data requests unless the route forwards them). An error answer's headers win.
 */
export const forwardLoaderHeaders: HeadersFunction = ({ loaderHeaders, errorHeaders }) => {
  const source = errorHeaders ?? loaderHeaders;
  const headers = new Headers();
  for (const name of FORWARDED) {
    const value = source.get(name) ?? loaderHeaders.get(name);
    if (value) headers.set(name, value);
  }
  return headers;
};
