import { sql } from "kysely";
import { type AnyDb, byteText, notNullDefault } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// listings.source_type: how the listed file was made, as the code of IPTC's
// Digital Source Type its own metadata states ("composite" for the built-in
// engine's composites, "trainedAlgorithmicMedia" for a generative engine's
// output); the marketplace labels the listing "AI-edited" or "AI-generated"
// from it. Listings made before read it from their stylized image's engine.

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .alterTable("listings")
    .addColumn("source_type", byteText(db), notNullDefault("composite"))
    .execute();
  await sql`update listings set source_type = 'trainedAlgorithmicMedia'
    where stylized_image_id in (select id from stylized_images where provider = 'fal')`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("listings").dropColumn("source_type").execute();
}
