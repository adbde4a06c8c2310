import type { DB } from "~/infra/db.server";
import { DELETED_FILES_KEPT_MS } from "~/infra/file-keys.server";
import { referencedFileKeys, ROW_OWNED_AREAS } from "~/infra/file-references.server";
import { keyStem, variantSourceStem } from "~/lib/image-variants";

/**
 * The keys in flight in object storage, where there is no directory to walk
 * (docs/decisions/062-object-storage.md).
 *
 * A store records a key here before it writes the object (remove_after null),
 * and a removal as the time after which the object may go. Intents are
 * resolved lazily by sweepObjectStore, not in each writer's transaction: an
 * intent whose key a row names is simply dropped; one that no row names an
 * hour later is an object a process stored and then died (or failed) before
 * committing its row, and the object is deleted. A removal takes the object
 * off its key at once (the store holds it aside, and the app signs the key no
 * more: isPendingRemoval); its held copy is deleted once due, or put back
 * should a row name the key again.
 */

/** How long a written key may wait for the row that names it before the object counts as orphaned. */
export const UNREFERENCED_INTENT_MS = 60 * 60 * 1000;

export async function recordFileIntent(db: DB, key: string, now = new Date()): Promise<void> {
  await db
    .insertInto("file_intents")
    .values({ file_key: key, created_at: now.toISOString(), remove_after: null })
    .onConflict((oc) =>
      oc.column("file_key").doUpdateSet({ created_at: now.toISOString(), remove_after: null }),
    )
    .execute();
}

/** Forgets a key's intent: its object was deleted at once (FileStore.discard). */
export async function dropFileIntent(db: DB, key: string): Promise<void> {
  await db.deleteFrom("file_intents").where("file_key", "=", key).execute();
}

export async function recordFileRemoval(
  db: DB,
  keys: string[],
  now = new Date(),
  keptMs = DELETED_FILES_KEPT_MS,
): Promise<void> {
  if (keys.length === 0) return;
  const removeAfter = new Date(now.getTime() + keptMs).toISOString();
  for (const key of keys) {
    await db
      .insertInto("file_intents")
      .values({ file_key: key, created_at: now.toISOString(), remove_after: removeAfter })
      .onConflict((oc) =>
        oc
          .column("file_key")
          .doUpdateSet({ created_at: now.toISOString(), remove_after: removeAfter }),
      )
      .execute();
  }
}

/** Whether a key's removal is recorded and not yet carried out: the app signs and serves it no more. */
export async function isPendingRemoval(db: DB, key: string): Promise<boolean> {
  const row = await db
    .selectFrom("file_intents")
    .select("file_key")
    .where("file_key", "=", key)
    .where("remove_after", "is not", null)
    .executeTakeFirst();
  return row !== undefined;
}

/** What the sweep needs of a store: deleting objects at once, and putting back a held one whose removal is called off. */
export interface ObjectDeleter {
  deleteNow(keys: string[]): Promise<void>;
  restoreHeld?(keys: string[]): Promise<void>;
}

export interface ObjectSweepResult {
  /** Keys whose objects were deleted (orphans and due removals). */
  deleted: string[];
  /** Intents dropped because a row names their key (or their area belongs to no row). */
  resolved: number;
}

/**
 * Deletes the objects of old unreferenced intents and of due removals, and
 * drops the intents that rows now reference. Run periodically (boot.server.ts).
 */
export async function sweepObjectStore(
  db: DB,
  store: ObjectDeleter,
  now = new Date(),
): Promise<ObjectSweepResult> {
  const intents = await db.selectFrom("file_intents").selectAll().execute();
  const result: ObjectSweepResult = { deleted: [], resolved: 0 };
  if (intents.length === 0) return result;
  const referenced = await referencedFileKeys(db);
  const referencedStems = new Set([...referenced].map(keyStem));
  // A variant or social card (or a card's variant) belongs to the image it was made from.
  const isReferenced = (key: string) =>
    referenced.has(key) ||
    referencedStems.has((variantSourceStem(key) ?? keyStem(key)).replace(/_card$/, ""));
  const rowOwned = (key: string) =>
    (ROW_OWNED_AREAS as readonly string[]).includes(key.slice(0, key.indexOf("/")));
  const orphanedBefore = new Date(now.getTime() - UNREFERENCED_INTENT_MS).toISOString();
  const nowText = now.toISOString();
  const drop: typeof intents = [];
  const remove: typeof intents = [];
  const calledOff: string[] = [];
  for (const intent of intents) {
    const owned = rowOwned(intent.file_key);
    if (intent.remove_after === null) {
      if (!owned || isReferenced(intent.file_key)) drop.push(intent);
      else if (intent.created_at < orphanedBefore) remove.push(intent);
    } else if (owned && isReferenced(intent.file_key)) {
      drop.push(intent); // named again: the removal is called off
      calledOff.push(intent.file_key);
    } else if (intent.remove_after <= nowText) {
      remove.push(intent);
    }
  }
  if (remove.length > 0) await store.deleteNow(remove.map((intent) => intent.file_key));
  if (calledOff.length > 0) await store.restoreHeld?.(calledOff);
  for (const intent of [...drop, ...remove]) {
    // Only the intent as read: one recorded again meanwhile stays.
    await db
      .deleteFrom("file_intents")
      .where("file_key", "=", intent.file_key)
      .where("created_at", "=", intent.created_at)
      .execute();
  }
  result.resolved = drop.length;
  result.deleted = remove.map((intent) => intent.file_key);
  return result;
}
