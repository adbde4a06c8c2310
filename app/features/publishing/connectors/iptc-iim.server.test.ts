import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { readIptcIim, withIptcIim } from "~/features/publishing/connectors/iptc-iim.server";

describe("IPTC IIM in a JPEG", () => {
  it("writes UTF-8 title, keywords, by-line and copyright that read back, and the JPEG still decodes", async () => {
    const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: "#888" } })
      .jpeg()
      .withXmp('<x:xmpmeta xmlns:x="adobe:ns:meta/"></x:xmpmeta>')
      .toBuffer();
    const long = "é".repeat(100);
    const out = withIptcIim(jpeg, {
      title: "Portrait à la lumière",
      headline: "Portrait à la lumière",
      caption: "A caption",
      keywords: ["anime", "portrait", long],
      byline: "Zoë Example",
      copyright: "© 2026 Zoë Example",
    });
    const fields = readIptcIim(out);
    expect(fields.get("1:90")).toEqual(["\u001b%G"]);
    expect(fields.get("2:5")).toEqual(["Portrait à la lumière"]);
    expect(fields.get("2:25")?.slice(0, 2)).toEqual(["anime", "portrait"]);
    // Cut to IIM's 64 bytes without splitting a character.
    expect(fields.get("2:25")?.[2]).toBe("é".repeat(32));
    expect(fields.get("2:116")).toEqual(["© 2026 Zoë Example"]);
    const meta = await sharp(out).metadata();
    expect([meta.width, meta.height]).toEqual([40, 30]);
    expect(meta.iptc).toBeDefined();
    expect(meta.xmp).toBeDefined();
  });
});
