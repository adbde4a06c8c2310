import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { SETTING_NAMES } from "~/infra/config.server";
import { SETTING_DESCRIPTIONS } from "~/infra/setting-descriptions.server";
import {
  CONFIGURATION_DOC,
  END_MARKER,
  renderSettingsReference,
  START_MARKER,
} from "../../scripts/settings-reference";

/**
 * The settings reference of docs/configuration.md is written from the
 * descriptions beside the configuration's schema, so the two cannot drift.
 */
describe("the settings reference", () => {
  it("describes every setting the server reads, and nothing it does not", () => {
    const described = Object.keys(SETTING_DESCRIPTIONS).sort();
    expect(described).toEqual([...SETTING_NAMES].sort());
    for (const name of SETTING_NAMES) {
      expect(SETTING_DESCRIPTIONS[name].meaning.trim(), name).not.toBe("");
      expect(SETTING_DESCRIPTIONS[name].default.trim(), name).not.toBe("");
    }
  });

  it("in docs/configuration.md is what `npm run docs:settings` writes", () => {
    const document = fs.readFileSync(CONFIGURATION_DOC, "utf8");
    const start = document.indexOf(START_MARKER);
    const end = document.indexOf(END_MARKER);
    expect(start, "the settings markers").toBeGreaterThanOrEqual(0);
    expect(
      document.slice(start, end + END_MARKER.length),
      "docs/configuration.md's settings differ from the descriptions: run `npm run docs:settings`",
    ).toBe(renderSettingsReference());
  });

  it("names each setting once, as a list item under its part of the product", () => {
    const reference = renderSettingsReference();
    for (const name of SETTING_NAMES) {
      expect(reference.split(`- **\`${name}\`**: `)).toHaveLength(2);
    }
    expect(reference).not.toMatch(/^\|/m);
  });
});
