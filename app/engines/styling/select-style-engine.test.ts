import { ConfigError, parseConfig } from "~/infra/config.server";
import {
  DEFAULT_FAL_MODEL,
  FAL_STYLE_DEFAULTS,
  falStyleTable,
} from "~/engines/styling/fal-models.server";
import { getStyleEngine } from "~/engines/styling/select-style-engine.server";

const env = (extra: Record<string, string>) => parseConfig({ ...process.env, ...extra });

describe("getStyleEngine", () => {
  it("is the local engine without FAL_KEY (the test environment has none)", () => {
    expect(process.env.FAL_KEY).toBeUndefined();
    expect(getStyleEngine().id).toBe("local");
    expect(getStyleEngine(env({ FAL_KEY: "" })).id).toBe("local");
  });

  it("is the fal engine when FAL_KEY is set", () => {
    expect(getStyleEngine(env({ FAL_KEY: "key-id:key-secret" })).id).toBe("fal");
  });
});

describe("fal configuration", () => {
  it("defaults to Kontext for every style and a 120 s timeout", () => {
    const config = env({});
    expect(config.FAL_TIMEOUT_SECONDS).toBe(120);
    const table = falStyleTable(config);
    for (const entry of Object.values(table)) expect(entry.model).toBe(DEFAULT_FAL_MODEL);
    expect(table).toEqual(FAL_STYLE_DEFAULTS);
  });

  it("FAL_MODEL replaces every style's model; FAL_STYLES overrides one style", () => {
    const config = env({
      FAL_MODEL: "fal-ai/flux-kontext/dev",
      FAL_STYLES: JSON.stringify({
        fantasy: { model: "fal-ai/nano-banana/edit", imageField: "image_urls", prompt: "Epic." },
      }),
      FAL_TIMEOUT_SECONDS: "0.5",
    });
    expect(config.FAL_TIMEOUT_SECONDS).toBe(0.5);
    const table = falStyleTable(config);
    expect(table.cartoon.model).toBe("fal-ai/flux-kontext/dev");
    expect(table.cartoon.prompt).toBe(FAL_STYLE_DEFAULTS.cartoon.prompt);
    expect(table.fantasy).toEqual({
      model: "fal-ai/nano-banana/edit",
      prompt: "Epic.",
      input: {},
      imageField: "image_urls",
    });
  });

  it("names the setting when FAL_STYLES or FAL_TIMEOUT_SECONDS is wrong", () => {
    for (const [name, value] of [
      ["FAL_STYLES", "{not json"],
      ["FAL_STYLES", JSON.stringify({ watercolour: { prompt: "x" } })],
      ["FAL_STYLES", JSON.stringify({ anime: { promt: "typo" } })],
      ["FAL_TIMEOUT_SECONDS", "0"],
      ["FAL_TIMEOUT_SECONDS", "soon"],
    ]) {
      let caught: unknown;
      try {
        env({ [name]: value });
      } catch (error) {
        caught = error;
      }
      expect(caught, `${name}=${value}`).toBeInstanceOf(ConfigError);
      expect((caught as ConfigError).problems.join("\n")).toContain(name);
    }
  });
});
