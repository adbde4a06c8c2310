import { describe, expect, it } from "vitest";
import { safeRedirect } from "./safe-redirect";

describe("safeRedirect", () => {
  it("keeps same-site paths with their query and hash", () => {
    expect(safeRedirect("/marketplace?style=anime#top")).toBe("/marketplace?style=anime#top");
  });
  it.each([
    undefined,
    "",
    "dashboard",
    "https://evil.example/x",
    "//evil.example",
    "/\\evil.example",
    "/\u0000x",
    "javascript:alert(1)",
    // Paths that normalise to another host: the result is checked, not only the input.
    "/.//evil.com",
    "/%2e//evil.com",
    "/%2E//evil.com",
    "/a/..//evil.com",
    "/a/%2e%2e//evil.com",
    "/\\evil.com",
    "//evil.com",
    "https://evil.com",
  ])("refuses %j", (target) => {
    expect(safeRedirect(target, "/home")).toBe("/home");
  });
  it("keeps percent-encoded text encoded: a same-site path, never a header", () => {
    expect(safeRedirect("/%0d%0aSet-Cookie:x", "/home")).toBe("/%0d%0aSet-Cookie:x");
  });
});
