import sharp from "sharp";
import { STYLE_IDS } from "~/lib/styles";
import { getLocalFileStore } from "~/infra/file-store.server";
import { verifyMediaRequest } from "~/infra/signed-urls.server";
import { DIGITAL_SOURCE_TYPE } from "~/engines/styling/ai-disclosure.server";
import { LOCAL_ENGINE_VERSION } from "~/engines/styling/local-engine.server";
import {
  ensureStyleSamples,
  styleSampleKey,
  styleSampleUrls,
} from "~/engines/styling/style-samples.server";

describe("landing page style samples", () => {
  it("are made once from the bundled portrait by the local engine, then left alone", async () => {
    const store = getLocalFileStore();
    const lines: string[] = [];
    const first = await ensureStyleSamples({ log: (line) => lines.push(line) });
    expect(first.created).toEqual([...STYLE_IDS]);
    expect(lines).toHaveLength(1);

    const outputs = new Map<string, Buffer>();
    for (const style of STYLE_IDS) {
      const data = await store.read(styleSampleKey(style));
      outputs.set(style, data);
      const meta = await sharp(data).metadata();
      expect(meta.format).toBe("jpeg");
      expect(meta.xmp?.toString("utf8")).toContain(DIGITAL_SOURCE_TYPE);
      expect(meta.xmp?.toString("utf8")).toContain(
        `local style engine v${LOCAL_ENGINE_VERSION} (${style})`,
      );
    }

    // A second start makes nothing and logs nothing.
    const again = await ensureStyleSamples({ log: (line) => lines.push(line) });
    expect(again.created).toEqual([]);
    expect(lines).toHaveLength(1);

    // A missing one is remade, the same bytes as before (the engine is deterministic).
    await store.remove(styleSampleKey("anime"));
    const repaired = await ensureStyleSamples({ log: (line) => lines.push(line) });
    expect(repaired.created).toEqual(["anime"]);
    expect((await store.read(styleSampleKey("anime"))).equals(outputs.get("anime")!)).toBe(true);
  });

  it("are served publicly under samples/ with valid file keys", () => {
    const urls = styleSampleUrls();
    expect(Object.keys(urls)).toEqual([...STYLE_IDS]);
    for (const style of STYLE_IDS) {
      expect(urls[style]).toBe(`/media/samples/${style}_sample_v${LOCAL_ENGINE_VERSION}.jpg`);
      // pathOf() refuses anything that is not a valid key.
      expect(() => getLocalFileStore().pathOf(styleSampleKey(style))).not.toThrow();
      expect(
        verifyMediaRequest(styleSampleKey(style), new URL(`http://localhost${urls[style]}`)),
      ).toBe(true);
    }
  });
});
