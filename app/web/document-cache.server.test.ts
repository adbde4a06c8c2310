import { describe, expect, it } from "vitest";
import {
  applyDocumentCacheControl,
  SIGNED_IN_CACHE_CONTROL,
  VISITOR_CACHE_CONTROL,
} from "./document-cache.server";

function cacheControlFor(cookie: string | null): string | null {
  const headers = new Headers();
  applyDocumentCacheControl(
    new Request("http://shop.test/", { headers: cookie === null ? {} : { Cookie: cookie } }),
    headers,
  );
  return headers.get("Cache-Control");
}

describe("the Cache-Control of a page", () => {
  it("is no-store for a request carrying a session cookie, however it is written", () => {
    for (const cookie of [
      "__session=s%3Aabc",
      "__Host-session=s%3Aabc",
      "__session =s%3Aabc",
      "__Host-session =s%3Aabc",
      "__Host-session\t=s%3Aabc",
      "theme=dark;__session \t=s%3Aabc",
      "__Host-session=junk; __Host-session =s%3Aabc",
    ]) {
      expect(cacheControlFor(cookie), cookie).toBe(SIGNED_IN_CACHE_CONTROL);
    }
  });

  it("is no-cache for a visitor, and a route's own choice stands", () => {
    expect(cacheControlFor(null)).toBe(VISITOR_CACHE_CONTROL);
    expect(cacheControlFor("theme=dark; __cart=x")).toBe(VISITOR_CACHE_CONTROL);
    const headers = new Headers({ "Cache-Control": "public, max-age=60" });
    applyDocumentCacheControl(
      new Request("http://shop.test/", { headers: { Cookie: "__session=x" } }),
      headers,
    );
    expect(headers.get("Cache-Control")).toBe("public, max-age=60");
  });
});
