import { addColumns, type AnyDb, index, nullable, ownedBy, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

/**
 * Model releases: the signed release of the person a styled image shows,
 * which a stock agency requires before it takes an image of an identifiable
 * person. One per stylized image (a new one replaces it): either signed in
 * the app (the model's name, the date, the typed signature, and whether a
 * drawn one was added) or a signed PDF the creator uploaded; either way the
 * PDF is in the file store (`file_key`, under releases/). It goes with its
 * image and with the account.
 *
 * And the pixels the style engine really made (`native_width`,
 * `native_height`), before any enlargement to keep the upload's size: a stock
 * submission is sent at that size, never enlarged. Null on styles made before
 * it was recorded.
 */
export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, "model_releases")
    .$call(ownedBy("user_id", "users.id"))
    .addColumn("stylized_image_id", "text", (col) =>
      col.notNull().unique().references("stylized_images.id").onDelete("cascade"),
    )
    .addColumn("kind", "text", (col) => col.notNull())
    .$call(nullable("text", "model_name", "signed_on", "signature"))
    .addColumn("drawn_signature", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("file_key", "text", (col) => col.notNull())
    .addColumn("bytes", "integer", (col) => col.notNull())
    .addColumn("created_at", "text", (col) => col.notNull())
    .execute();
  await index(db, "model_releases_user", "model_releases", ["user_id", "created_at"]).execute();
  await addColumns(db, "stylized_images", "integer", ["native_width", "native_height"]);
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("stylized_images").dropColumn("native_height").execute();
  await db.schema.alterTable("stylized_images").dropColumn("native_width").execute();
  await db.schema.dropTable("model_releases").execute();
}
