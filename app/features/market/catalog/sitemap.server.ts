import { sql } from "kysely";
import type { DB } from "~/infra/db.server";
import { publiclyListed } from "~/features/market/catalog/listing-visibility.server";
import { escapeXml } from "~/features/market/catalog/social-card.server";

/**
 * The sitemap search engines read: /sitemap.xml is a sitemap index naming
 * parts of at most SITEMAP_PART_SIZE URLs each (the protocol's limit is 50,000
 * URLs and 50 MB per file): one part of the public pages, then the live
 * listings' pages and the storefronts, each in id order. A part is named by
 * the last id of the part before it (`start` for the first), so reading it is
 * one keyset query (`id > after order by id limit N`) and the index finds the
 * parts' first ids by skipping N rows along the primary key at a time: nothing
 * loads more than one part's rows, however many listings there are. Every URL
 * is absolute, from the configured public origin, with its `lastmod`.
 */
export const SITEMAP_PART_SIZE = 50_000;

/** The public pages every sitemap lists, with the date their text last changed. */
export const PUBLIC_PAGES: readonly { path: string; lastmod: string }[] = [
  { path: "/", lastmod: "2026-11-26" },
  { path: "/marketplace", lastmod: "" },
  { path: "/pricing", lastmod: "2026-11-26" },
  { path: "/creator-guide", lastmod: "2026-11-26" },
  { path: "/training", lastmod: "2026-11-26" },
  { path: "/help", lastmod: "2026-11-26" },
  { path: "/contact", lastmod: "2026-11-26" },
  { path: "/license", lastmod: "2026-11-26" },
  { path: "/terms", lastmod: "2026-11-26" },
  { path: "/privacy", lastmod: "2026-11-26" },
  { path: "/provenance", lastmod: "2026-11-29" },
];

export type SitemapKind = "pages" | "listings" | "creators";
export const SITEMAP_KINDS: readonly SitemapKind[] = ["pages", "listings", "creators"];

/** The first part of a kind is named `start`; the others by the last id of the part before. */
export const FIRST_PART = "start";

interface Entry {
  loc: string;
  lastmod: string;
}

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"';

/** A listing is live when it is listed by a creator who is neither banned nor erased. */
function liveListings(db: DB) {
  return db
    .selectFrom("listings as l")
    .innerJoin("users as u", "u.id", "l.user_id")
    .where(publiclyListed)
    .where("u.erased_at", "is", null);
}

/** A storefront exists for a creator with a handle who is neither banned nor erased. */
function liveStorefronts(db: DB) {
  return db
    .selectFrom("users as u")
    .where("u.handle", "is not", null)
    .where("u.banned", "=", 0)
    .where("u.erased_at", "is", null);
}

/** The id after which each part of a kind starts (FIRST_PART for the first); none when the kind is empty. */
async function partStarts(
  db: DB,
  kind: "listings" | "creators",
  partSize: number,
): Promise<string[]> {
  const starts: string[] = [];
  let after: string | null = null;
  for (;;) {
    // Is there anything after `after`? Then a part starts there; its last row is partSize - 1 further on.
    const first = await idAfter(db, kind, after, 0);
    if (!first) return starts;
    starts.push(after ?? FIRST_PART);
    const last = await idAfter(db, kind, after, partSize - 1);
    if (!last) return starts;
    after = last;
  }
}

/** The id `skip` rows past the first one after `after` (in id order), or null. */
async function idAfter(
  db: DB,
  kind: "listings" | "creators",
  after: string | null,
  skip: number,
): Promise<string | null> {
  const row =
    kind === "listings"
      ? await liveListings(db)
          .select("l.id")
          .$if(after !== null, (qb) => qb.where("l.id", ">", after!))
          .orderBy("l.id")
          .limit(1)
          .offset(skip)
          .executeTakeFirst()
      : await liveStorefronts(db)
          .select("u.id")
          .$if(after !== null, (qb) => qb.where("u.id", ">", after!))
          .orderBy("u.id")
          .limit(1)
          .offset(skip)
          .executeTakeFirst();
  return row?.id ?? null;
}

export interface SitemapPart {
  kind: SitemapKind;
  start: string;
}

/** Every part the sitemap has now: the pages, then the listings' and the storefronts' parts. */
export async function sitemapParts(db: DB, partSize = SITEMAP_PART_SIZE): Promise<SitemapPart[]> {
  const parts: SitemapPart[] = [{ kind: "pages", start: FIRST_PART }];
  for (const kind of ["listings", "creators"] as const) {
    for (const start of await partStarts(db, kind, partSize)) parts.push({ kind, start });
  }
  return parts;
}

/** A part's path on the site. */
export function sitemapPartPath(part: SitemapPart): string {
  return `/sitemaps/${part.kind}/${encodeURIComponent(part.start)}.xml`;
}

/** The sitemap index: its parts' absolute URLs. */
export function sitemapIndexXml(origin: string, parts: readonly SitemapPart[]): string {
  const body = parts
    .map((part) => `<sitemap><loc>${escapeXml(origin + sitemapPartPath(part))}</loc></sitemap>`)
    .join("\n");
  return `${XML_HEAD}<sitemapindex ${NS}>\n${body}\n</sitemapindex>\n`;
}

/** One part of the sitemap (the caller checks it is one of sitemapParts), or null for an unknown kind. */
export async function sitemapPartXml(
  db: DB,
  origin: string,
  kind: string,
  start: string,
  partSize = SITEMAP_PART_SIZE,
): Promise<string | null> {
  const after = start === FIRST_PART ? null : start;
  let entries: Entry[];
  if (kind === "pages") {
    if (after !== null) return null;
    entries = await publicPageEntries(db, origin);
  } else if (kind === "listings") {
    const rows = await liveListings(db)
      .select(["l.id", "l.updated_at"])
      .$if(after !== null, (qb) => qb.where("l.id", ">", after!))
      .orderBy("l.id")
      .limit(partSize)
      .execute();
    entries = rows.map((row) => ({
      loc: `${origin}/marketplace/${encodeURIComponent(row.id)}`,
      lastmod: row.updated_at,
    }));
  } else if (kind === "creators") {
    const rows = await liveStorefronts(db)
      .select([
        "u.id",
        "u.handle",
        "u.updated_at",
        // The storefront changes with its listings too.
        sql<
          string | null
        >`(select max(x.updated_at) from listings x where x.user_id = u.id and x.status = 'active')`.as(
          "listed_at",
        ),
      ])
      .$if(after !== null, (qb) => qb.where("u.id", ">", after!))
      .orderBy("u.id")
      .limit(partSize)
      .execute();
    entries = rows.map((row) => ({
      loc: `${origin}/creators/${encodeURIComponent(row.handle ?? "")}`,
      lastmod: row.listed_at && row.listed_at > row.updated_at ? row.listed_at : row.updated_at,
    }));
  } else {
    return null;
  }
  const body = entries
    .map(
      (entry) =>
        `<url><loc>${escapeXml(entry.loc)}</loc><lastmod>${escapeXml(entry.lastmod)}</lastmod></url>`,
    )
    .join("\n");
  return `${XML_HEAD}<urlset ${NS}>\n${body}\n</urlset>\n`;
}

async function publicPageEntries(db: DB, origin: string): Promise<Entry[]> {
  // The marketplace changes whenever a listing is made: the newest one's date (the index on status, created_at).
  const newest = await db
    .selectFrom("listings")
    .select((eb) => eb.fn.max("created_at").as("at"))
    .where("status", "=", "active")
    .executeTakeFirst();
  const fallback = PUBLIC_PAGES[0].lastmod;
  return PUBLIC_PAGES.map((page) => ({
    loc: `${origin}${page.path}`,
    lastmod: page.lastmod || (typeof newest?.at === "string" ? newest.at : fallback),
  }));
}

/**
 * /robots.txt: crawlers may read the public pages, not the API, the signed-in
 * areas or anything behind a link made for one person; and where the sitemap is.
 */
export function robotsTxt(origin: string): string {
  return [
    "User-agent: *",
    "Allow: /",
    "Disallow: /api/",
    "Disallow: /dashboard",
    "Disallow: /admin",
    "Disallow: /settings",
    "Disallow: /downloads/",
    "Disallow: /library",
    "Disallow: /licenses/",
    "",
    `Sitemap: ${origin}/sitemap.xml`,
    "",
  ].join("\n");
}

/** How long a generated sitemap file is reused (in this process). */
export const SITEMAP_CACHE_MS = 60_000;

const cache = new Map<string, { expires: number; value: Promise<string | null> }>();

/** A sitemap file made at most once per SITEMAP_CACHE_MS (per key), concurrent requests sharing one make. */
export function cachedSitemap(
  key: string,
  make: () => Promise<string | null>,
  now = Date.now(),
): Promise<string | null> {
  const hit = cache.get(key);
  if (hit && hit.expires > now) return hit.value;
  const value = make();
  cache.set(key, { expires: now + SITEMAP_CACHE_MS, value });
  value.catch(() => cache.delete(key));
  if (cache.size > 100) for (const [k, v] of cache) if (v.expires <= now) cache.delete(k);
  return value;
}

/** Empties the sitemap cache (tests). */
export function clearSitemapCache(): void {
  cache.clear();
}
