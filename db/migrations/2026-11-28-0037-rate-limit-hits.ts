import { type AnyDb, byteText, index, notNull, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// The per-address and per-key limits' hits, when more than one process may
// count them (PostgreSQL, or web processes apart from the worker): one row a
// hit, `bucket` is the rule's name and its key (an address, a hashed email),
// `at` the ISO time of the hit. A limit counts its bucket's rows within its
// window; rows past the longest window are deleted as hits arrive.

export async function up(db: AnyDb): Promise<void> {
  // On PostgreSQL, text compares byte by byte ("C"), as on SQLite.
  const text = byteText(db);
  await tableWithId(db, "rate_limit_hits", text)
    .$call(notNull(text, "bucket", "at"))
    .execute();
  await index(db, "rate_limit_hits_by_bucket_and_time", "rate_limit_hits", [
    "bucket",
    "at",
  ]).execute();
  await index(db, "rate_limit_hits_by_time", "rate_limit_hits", ["at"]).execute();
}
