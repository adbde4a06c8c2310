import type { AnyDb } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// A style remembers the seed it was made with, so a re-roll (the same photo
// and style with a new seed) is reproducible and the creator can see which
// run is which. Older styles have none (null).

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("stylized_images").addColumn("seed", "integer").execute();
}
