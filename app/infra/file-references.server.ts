import type { DB } from "~/infra/db.server";
import { artifactKeys } from "~/infra/artifact-files.server";

/**
 * Every column that names a file in the store, in one place: the orphan sweep
 * keeps exactly the files these columns name. A new column holding a file key
 * must be added here, or the sweep would remove its files at the next start.
 */
export const FILE_KEY_COLUMNS = [
  ["images", "file_key"],
  ["stylized_images", "file_key"],
  ["stylized_images", "optimized_file_key"],
  ["listings", "file_key"],
  ["listings", "source_file_key"],
  ["listings", "preview_key"],
  ["order_items", "file_key"],
  ["listing_platforms", "artifact_key"],
  ["account_exports", "file_key"],
  ["model_releases", "file_key"],
] as const;

/** The file areas whose files belong to rows (samples/ is rebuilt at start; tmp/ has its own sweep). */
export const ROW_OWNED_AREAS = [
  "originals",
  "styled",
  "optimized",
  "previews",
  "listings",
  "kits",
  "exports",
  "releases",
] as const;

/** The keys of every file some row refers to (a kit's zip also keeps its image beside it). */
export async function referencedFileKeys(db: DB): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const [table, column] of FILE_KEY_COLUMNS) {
    const rows = await db.selectFrom(table).select(column).where(column, "is not", null).execute();
    for (const row of rows as Array<Record<string, string | null>>) {
      const key = row[column];
      if (!key) continue;
      if (table === "listing_platforms")
        for (const artifact of artifactKeys(key)) keys.add(artifact);
      else keys.add(key);
    }
  }
  return keys;
}
