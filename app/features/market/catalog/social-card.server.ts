import crypto from "node:crypto";
import sharp from "sharp";
import type { FileStore } from "~/infra/file-store.server";
import { publicMediaUrl } from "~/infra/signed-urls.server";
import { formatMoney } from "~/lib/money";
import { PRODUCT_NAME } from "~/lib/product";
import { socialCardKey } from "~/lib/image-variants";
import { withoutNonXmlText } from "~/lib/xml-text";

/**
 * A listing's social card: the 1200×630 picture a shared link shows in chats
 * and social posts (`og:image`). It is the listing's watermarked preview (never
 * the clean file) on a dark background, beside the title and the price drawn
 * as SVG text. It is made once per listing and stored next to the preview
 * (`previews/<preview>_card.jpg`, so it goes wherever the preview goes), and
 * served from /media like the preview, cacheable for a year: its URL carries
 * a version made from the title and price (`?v=`), so a new title is a new URL.
 */
export const SOCIAL_CARD_WIDTH = 1200;
export const SOCIAL_CARD_HEIGHT = 630;

const PADDING = 40;
const IMAGE_BOX = SOCIAL_CARD_HEIGHT - 2 * PADDING;
const TEXT_X = PADDING + IMAGE_BOX + 48;
const TEXT_WIDTH = SOCIAL_CARD_WIDTH - TEXT_X - PADDING;
const TITLE_SIZE = 44;
/** About how many title characters fit on a line at TITLE_SIZE (DejaVu Sans averages ~0.55 em). */
const TITLE_LINE_CHARS = Math.floor(TEXT_WIDTH / (TITLE_SIZE * 0.56));
const TITLE_LINES = 4;

export interface SocialCardListing {
  previewKey: string;
  title: string;
  priceCents: number;
}

/** What the card shows, as a short token: a new title or price makes a new URL. */
export function socialCardVersion(
  listing: Pick<SocialCardListing, "title" | "priceCents">,
): string {
  return crypto
    .createHash("sha256")
    .update(`${listing.title}\n${listing.priceCents}`)
    .digest("base64url")
    .slice(0, 10);
}

/** The card's URL (site-relative): the stored file under /media with its version. */
export function socialCardPath(listing: SocialCardListing): string {
  return `${publicMediaUrl(socialCardKey(listing.previewKey))}?v=${socialCardVersion(listing)}`;
}

/** Text as SVG character data or an attribute value: markup, quotes and ampersands are entities. */
export function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The title cut into lines of about `perLine` characters (at spaces when it can),
 * at most `lines` of them, the last ending in "…" when the title is longer.
 * Characters are counted as code points, so an emoji is never split in half.
 */
export function wrapTitle(
  title: string,
  perLine = TITLE_LINE_CHARS,
  lines = TITLE_LINES,
): string[] {
  // Control characters have no place in an SVG text node, and code points XML cannot hold
  // at all (U+FFFE, U+FFFF, a lone surrogate) in a title stored before they were refused would
  // keep the card from ever drawing: they are left out.
  const printable = Array.from(withoutNonXmlText(title), (char) =>
    char.charCodeAt(0) < 32 || char === "\u007f" ? " " : char,
  ).join("");
  const words = printable.trim().split(/\s+/).filter(Boolean);
  const out: string[] = [];
  let line: string[] = [];
  const flush = () => {
    if (line.length) out.push(line.join(""));
    line = [];
  };
  for (const word of words) {
    let chars = Array.from(word);
    while (chars.length > 0) {
      const room = perLine - line.length - (line.length ? 1 : 0);
      if (chars.length <= room) {
        if (line.length) line.push(" ");
        line.push(...chars);
        chars = [];
      } else if (line.length) {
        flush();
      } else {
        line.push(...chars.slice(0, perLine));
        chars = chars.slice(perLine);
        flush();
      }
    }
  }
  flush();
  if (out.length <= lines) return out;
  const kept = out.slice(0, lines);
  const last = Array.from(kept[lines - 1]);
  kept[lines - 1] = `${last
    .slice(0, Math.max(0, perLine - 1))
    .join("")
    .trimEnd()}…`;
  return kept;
}

/** The card's background and text, with a hole at the left where the preview goes. */
export function socialCardSvg(listing: Pick<SocialCardListing, "title" | "priceCents">): string {
  const lines = wrapTitle(listing.title);
  const titleTop = 150;
  const lineHeight = Math.round(TITLE_SIZE * 1.2);
  const tspans = lines
    .map(
      (line, index) =>
        `<tspan x="${TEXT_X}" y="${titleTop + index * lineHeight}">${escapeXml(line)}</tspan>`,
    )
    .join("");
  const priceY = titleTop + Math.max(1, lines.length) * lineHeight + 50;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SOCIAL_CARD_WIDTH}" height="${SOCIAL_CARD_HEIGHT}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#1e1b4b"/><stop offset="1" stop-color="#0f172a"/></linearGradient></defs>
<rect width="100%" height="100%" fill="url(#bg)"/>
<rect x="${PADDING - 4}" y="${PADDING - 4}" width="${IMAGE_BOX + 8}" height="${IMAGE_BOX + 8}" rx="12" fill="#334155"/>
<g font-family="DejaVu Sans, Verdana, Arial, sans-serif">
<text x="${TEXT_X}" y="${PADDING + 46}" font-size="26" fill="#a5b4fc" font-weight="bold">${escapeXml(PRODUCT_NAME)}</text>
<text font-size="${TITLE_SIZE}" font-weight="bold" fill="#ffffff">${tspans}</text>
<text x="${TEXT_X}" y="${priceY}" font-size="56" font-weight="bold" fill="#fde68a">${escapeXml(formatMoney(listing.priceCents))}</text>
<text x="${TEXT_X}" y="${SOCIAL_CARD_HEIGHT - PADDING - 10}" font-size="24" fill="#cbd5e1">Commercial license included</text>
</g>
</svg>`;
}

/** The card's JPEG bytes from the watermarked preview's bytes. */
export async function makeSocialCard(
  preview: Buffer,
  listing: Pick<SocialCardListing, "title" | "priceCents">,
): Promise<Buffer> {
  const image = await sharp(preview, { failOn: "error" })
    .resize(IMAGE_BOX, IMAGE_BOX, { fit: "contain", background: "#334155" })
    .toBuffer();
  return sharp(Buffer.from(socialCardSvg(listing)))
    .composite([{ input: image, top: PADDING, left: PADDING }])
    .flatten({ background: "#0f172a" })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}

/** The versions of cards this process made or found stored (key with version); bounded. */
const madeCards = new Set<string>();
const MADE_CARDS_KEPT = 20_000;
/** Cards being made now, so concurrent first requests make one. */
const making = new Map<string, Promise<void>>();

/**
 * Makes the listing's card unless this version is stored already. The stored
 * file carries the version it was made for beside it (`<key>` holds the bytes,
 * the process remembers the version); a title or price change removes the old
 * card (listings.server.ts), so a stored card is always the current one.
 */
export async function ensureSocialCard(
  store: FileStore,
  listing: SocialCardListing,
): Promise<void> {
  const key = socialCardKey(listing.previewKey);
  const memo = `${key}\n${socialCardVersion(listing)}`;
  if (madeCards.has(memo)) return;
  const pending = making.get(memo);
  if (pending) return pending;
  const work = (async () => {
    if (!(await store.exists(key))) {
      const card = await makeSocialCard(await store.read(listing.previewKey), listing);
      await store.write(key, card);
    }
    madeCards.add(memo);
    if (madeCards.size > MADE_CARDS_KEPT)
      madeCards.delete(madeCards.values().next().value as string);
  })();
  making.set(memo, work);
  try {
    await work;
  } finally {
    making.delete(memo);
  }
}

/** Forgets what this process made (a title change removes the stored card; see listings.server.ts). */
export function forgetSocialCard(previewKey: string): void {
  const key = socialCardKey(previewKey);
  for (const memo of madeCards) if (memo.startsWith(`${key}\n`)) madeCards.delete(memo);
}
