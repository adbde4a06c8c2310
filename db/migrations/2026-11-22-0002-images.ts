import { type AnyDb, index, notNull, nullable, ownedBy, tableWithId } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

export async function up(db: AnyDb): Promise<void> {
  await tableWithId(db, "images")
    .$call(ownedBy("user_id", "users.id"))
    .addColumn("file_key", "text", (c) => c.notNull())
    .$call(notNull("integer", "width", "height", "bytes"))
    .$call(notNull("text", "mime_type", "created_at"))
    .execute();
  await index(db, "images_user_id_created_at", "images", ["user_id", "created_at"]).execute();

  await tableWithId(db, "stylized_images")
    .$call(ownedBy("image_id", "images.id"))
    .$call(ownedBy("user_id", "users.id"))
    .addColumn("style", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("file_key", "text")
    .$call(nullable("integer", "width", "height", "bytes"))
    .addColumn("error", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("price_cents", "integer")
    .addColumn("licensing_enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("nft_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .$call(nullable("text", "optimized_file_key", "optimized_format"))
    .addColumn("optimized_quality", "integer")
    .addColumn("optimized_resolution", "text")
    .$call(
      nullable(
        "integer",
        "optimized_width",
        "optimized_height",
        "optimized_bytes",
        "watermark",
        "social_optimized",
      ),
    )
    .$call(notNull("text", "created_at", "updated_at"))
    .addColumn("completed_at", "text")
    .execute();
  await index(db, "stylized_images_user_id_created_at", "stylized_images", [
    "user_id",
    "created_at",
  ]).execute();
  await index(db, "stylized_images_image_id", "stylized_images", ["image_id"]).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable("stylized_images").execute();
  await db.schema.dropTable("images").execute();
}
