import { PRODUCT_NAME } from "~/lib/product";

/** A part of the privacy notice, as the privacy feature states it from the running configuration. */
export interface NoticeSection {
  id: string;
  title: string;
  paragraphs: string[];
}

/** What each entry of the zip holds, in the order the zip has them. */
const CONTENTS: [string, string][] = [
  [
    "account.json",
    "your profile, your consent to face processing and its log, whether a verified face is kept, your sessions and API tokens (when and from which browser, never a secret), and the platforms you connected (with the wallet address, shop or account name you gave)",
  ],
  [
    "images.json",
    "each upload and style: sizes, dates, how an upload compares with your verified face, and which engine or vendor made or enlarged each file",
  ],
  ["listings.json", "your listings"],
  ["sales.json", "your sales (no buyer's data)"],
  ["followers.json", "how many people follow you (never their addresses)"],
  ["payouts.json", "your payout account's state, balance and transfers"],
  ["model-releases.json", "the model releases you recorded, when there are any"],
  ["profile/", "your profile photo"],
  [
    "images/",
    "every file of yours, byte for byte as stored: originals, styles, optimized copies, the files sold, previews",
  ],
  ["kits/, releases/", "packages prepared for other platforms, and model release PDFs"],
  ["files.json", "each file's size and SHA-256, and any file that was missing"],
];

/** The notice's sections that answer GDPR Art. 15(1) and (2), in the order the article asks. */
const ARTICLE_15_SECTIONS = [
  "controller",
  "purposes",
  "stored",
  "recipients",
  "originals",
  "retention",
  "rights",
] as const;

/**
 * README.txt of a creator's data export: what each file holds, and the
 * information GDPR Art. 15(1) gives with a copy of one's data (purposes,
 * categories, recipients and transfers, retention, rights, the source, and
 * automated decisions), taken from the privacy notice as the server states it
 * now, so the two cannot differ.
 */
export function exportReadme(input: { exportedAt: string; notice: NoticeSection[] }): string {
  const lines: string[] = [
    `Your data from ${PRODUCT_NAME}`,
    `Exported at ${input.exportedAt}`,
    "",
    "WHAT IS IN THIS EXPORT",
    "",
    ...CONTENTS.map(([name, what]) => `- ${name}: ${what}`),
    "",
    "WHERE THE DATA CAME FROM",
    "",
    "Everything here came from you, through your use of the service, except your sales, which record what buyers bought from you.",
  ];
  for (const id of ARTICLE_15_SECTIONS) {
    const section = input.notice.find((candidate) => candidate.id === id);
    if (!section) continue;
    lines.push("", section.title.toUpperCase(), "", ...section.paragraphs.flatMap((p) => [p, ""]));
    lines.pop();
  }
  return `${lines.join("\n")}\n`;
}
