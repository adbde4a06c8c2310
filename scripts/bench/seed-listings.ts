import crypto from "node:crypto";
import SQLite from "better-sqlite3";

/**
 * Bench data straight into a migrated database file: creators (2% banned)
 * and listings (5% withdrawn; one title in 1,000 holds the rare word
 * "Aurora"). Listing rows name files that do not exist: the marketplace
 * pages only link to them.
 */
const STYLES = ["professional", "cartoon", "anime", "fantasy"];
const WORDS = [
  "Sunset",
  "Studio",
  "Neon",
  "Portrait",
  "Dream",
  "City",
  "Golden",
  "Forest",
  "Ocean",
  "Retro",
  "Bold",
  "Calm",
];

export function seedCreators(file: string, count: number): string[] {
  const sqlite = new SQLite(file);
  const now = new Date().toISOString();
  const insert =
    sqlite.prepare(`insert into users (id, email, first_name, last_name, password_hash, profile_image_url, banned, created_at, updated_at)
    values (?, ?, ?, 'Bench', 'x', null, ?, ?, ?)`);
  const ids = Array.from({ length: count }, (_, i) => `creator-${i}`);
  sqlite.transaction(() => {
    ids.forEach((id, i) =>
      insert.run(id, `creator${i}@bench.example`, `Creator${i}`, i % 50 === 0 ? 1 : 0, now, now),
    );
  })();
  sqlite.close();
  return ids;
}

export function seedListings(file: string, from: number, to: number, creators: string[]) {
  const sqlite = new SQLite(file);
  sqlite.pragma("journal_mode = WAL");
  const insert =
    sqlite.prepare(`insert into listings (id, user_id, stylized_image_id, style, title, description, price_cents, tags,
    licensing_enabled, nft_enabled, file_key, file_mime_type, source_file_key, width, height, preview_key, view_count, status, created_at, updated_at)
    values (?, ?, null, ?, ?, ?, ?, ?, 1, 0, ?, 'image/jpeg', ?, 1024, 1024, ?, 0, ?, ?, ?)`);
  const start = Date.parse("2026-01-01T00:00:00Z");
  sqlite.transaction(() => {
    for (let i = from; i < to; i++) {
      const id = crypto.randomBytes(16).toString("base64url");
      const style = STYLES[i % STYLES.length];
      // "Aurora" is rare (1 in 1000): the search has to look far for it.
      const title =
        i % 1000 === 7
          ? `Aurora ${i}`
          : `${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]} ${i}`;
      const stamp = new Date(start + i * 60_000).toISOString();
      insert.run(
        id,
        creators[i % creators.length],
        style,
        title,
        `An AI-stylized ${style} selfie.`,
        2500 + (i % 50) * 100,
        JSON.stringify([style, "portrait"]),
        `listings/${id}.jpg`,
        `styled/${id}.jpg`,
        `previews/${id}.jpg`,
        i % 20 === 0 ? "withdrawn" : "active",
        stamp,
        stamp,
      );
    }
  })();
  sqlite.pragma("optimize");
  sqlite.close();
}
