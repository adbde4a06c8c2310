import type { AnyDb } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// A model release signed in the app may name a photographer other than the
// model (someone else took the photo): its PDF then waits for the
// photographer's signature, and a stock agency is not sent the image until a
// signed copy replaces it (uploaded). `awaiting_photographer` is 1 for such a
// release, 0 otherwise (a self-portrait, whose model signs as photographer
// too, as every release signed before this migration did; or an uploaded
// one). The model's contact details and date of birth are printed on the PDF
// and kept nowhere else: no column holds them.

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("model_releases")
    .addColumn("awaiting_photographer", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("model_releases").dropColumn("awaiting_photographer").execute();
}
