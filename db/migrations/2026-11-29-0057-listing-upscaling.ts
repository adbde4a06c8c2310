import { sql } from "kysely";
import { type AnyDb, addColumns, byteText } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// How a listing's file was enlarged to the size it is sold at (docs/decisions/092):
// - listings.upscaled_by: null (not enlarged), "lanczos3", "fal-ai/esrgan", or
//   both joined with "+" in the order they ran (the stylized image's vocabulary);
// - listings.native_width, native_height: the pixels the engine really made,
//   before any enlargement (null when unknown or not enlarged).
// Listings made before copy what their stylized image recorded of the same
// file (a fal.ai style enlarged when it was made).

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("listings").addColumn("upscaled_by", byteText(db)).execute();
  await addColumns(db, "listings", "integer", ["native_width", "native_height"]);
  await sql`update listings set
    upscaled_by = (select s.upscaled_by from stylized_images s
      where s.id = listings.stylized_image_id and s.file_key = listings.source_file_key),
    native_width = (select s.native_width from stylized_images s
      where s.id = listings.stylized_image_id and s.file_key = listings.source_file_key
        and s.upscaled_by is not null),
    native_height = (select s.native_height from stylized_images s
      where s.id = listings.stylized_image_id and s.file_key = listings.source_file_key
        and s.upscaled_by is not null)`.execute(db);
}

export async function down(db: AnyDb): Promise<void> {
  for (const column of ["native_height", "native_width", "upscaled_by"])
    await db.schema.alterTable("listings").dropColumn(column).execute();
}
