// Writes the settings reference of docs/configuration.md (between its
// settings markers) from app/infra/setting-descriptions.server.ts:
//   npm run docs:settings
// tests/docs/settings-reference.test.ts fails when the file and this render differ.
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import {
  SETTING_DESCRIPTIONS,
  SETTING_GROUPS,
  SETTING_GROUP_TITLES,
} from "~/infra/setting-descriptions.server";
import { SETTING_NAMES } from "~/infra/config.server";

export const CONFIGURATION_DOC = path.resolve(
  path.dirname(url.fileURLToPath(import.meta.url)),
  "../docs/configuration.md",
);
export const START_MARKER =
  "<!-- settings:start: written by `npm run docs:settings` from app/infra/setting-descriptions.server.ts -->";
export const END_MARKER = "<!-- settings:end -->";

const WIDTH = 100;

/** Words of `text`, never breaking inside a `code span`. */
function words(text: string): string[] {
  const found: string[] = [];
  let current = "";
  let inCode = false;
  for (const character of text) {
    if (character === "`") inCode = !inCode;
    if (character === " " && !inCode) {
      if (current) found.push(current);
      current = "";
    } else current += character;
  }
  if (current) found.push(current);
  return found;
}

/** `first` then `text`'s words, in lines of at most WIDTH columns (a longer word stands alone), the rest indented by `indent`. */
function wrapped(first: string, text: string, indent: string): string[] {
  const lines: string[] = [];
  let line = first;
  for (const word of words(text)) {
    const candidate = line.trim() === "" || line === first ? line + word : `${line} ${word}`;
    if (candidate.length > WIDTH && line.trim() !== "" && line !== first) {
      lines.push(line);
      line = indent + word;
    } else line = candidate;
  }
  lines.push(line);
  return lines;
}

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** The settings reference: a heading per part of the product, a list item per setting. */
export function renderSettingsReference(): string {
  const lines: string[] = [START_MARKER];
  for (const group of SETTING_GROUPS) {
    const names = SETTING_NAMES.filter((name) => SETTING_DESCRIPTIONS[name].group === group);
    if (names.length === 0) continue;
    lines.push("", `### ${SETTING_GROUP_TITLES[group]}`, "");
    for (const name of names) {
      const { default: fallback, meaning } = SETTING_DESCRIPTIONS[name];
      lines.push(
        ...wrapped(
          `- **\`${name}\`**: `,
          `${sentence(meaning)} Default: ${sentence(fallback)}`,
          "  ",
        ),
      );
    }
  }
  lines.push("", END_MARKER);
  return lines.join("\n");
}

/** docs/configuration.md with its settings reference replaced by `reference`. */
export function withSettingsReference(document: string, reference: string): string {
  const start = document.indexOf(START_MARKER);
  const end = document.indexOf(END_MARKER);
  if (start < 0 || end < start) throw new Error("docs/configuration.md has no settings markers");
  return document.slice(0, start) + reference + document.slice(end + END_MARKER.length);
}

if (process.argv[1] && path.resolve(process.argv[1]) === url.fileURLToPath(import.meta.url)) {
  const document = fs.readFileSync(CONFIGURATION_DOC, "utf8");
  fs.writeFileSync(CONFIGURATION_DOC, withSettingsReference(document, renderSettingsReference()));
  console.log(
    `Wrote the settings reference of ${path.relative(process.cwd(), CONFIGURATION_DOC)}.`,
  );
}
