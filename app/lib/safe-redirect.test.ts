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
    "/%0d%0aSet-Cookie:x",
    "/\u0000x",
    "javascript:alert(1)",
  ])("refuses %j", (target) => {
    const result = safeRedirect(target, "/home");
    if (target === "/%0d%0aSet-Cookie:x") {
      // Percent-encoded text stays encoded: still a same-site path, never a header.
      expect(result).toBe("/%0d%0aSet-Cookie:x");
    } else {
      expect(result).toBe("/home");
    }
  });
});
