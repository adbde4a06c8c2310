import type { Kysely } from "kysely";
import { index } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("images")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("file_key", "text", (c) => c.notNull())
    .addColumn("width", "integer", (c) => c.notNull())
    .addColumn("height", "integer", (c) => c.notNull())
    .addColumn("bytes", "integer", (c) => c.notNull())
    .addColumn("mime_type", "text", (c) => c.notNull())
    .addColumn("created_at", "text", (c) => c.notNull())
    .execute();
  await index(db, "images_user_id_created_at", "images", ["user_id", "created_at"]).execute();

  await db.schema
    .createTable("stylized_images")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("image_id", "text", (c) => c.notNull().references("images.id").onDelete("cascade"))
    .addColumn("user_id", "text", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("style", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull().defaultTo("pending"))
    .addColumn("provider", "text", (c) => c.notNull())
    .addColumn("file_key", "text")
    .addColumn("width", "integer")
    .addColumn("height", "integer")
    .addColumn("bytes", "integer")
    .addColumn("error", "text")
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("price_cents", "integer")
    .addColumn("licensing_enabled", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("nft_enabled", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("optimized_file_key", "text")
    .addColumn("optimized_format", "text")
    .addColumn("optimized_quality", "integer")
    .addColumn("optimized_resolution", "text")
    .addColumn("optimized_width", "integer")
    .addColumn("optimized_height", "integer")
    .addColumn("optimized_bytes", "integer")
    .addColumn("watermark", "integer")
    .addColumn("social_optimized", "integer")
    .addColumn("created_at", "text", (c) => c.notNull())
    .addColumn("updated_at", "text", (c) => c.notNull())
    .addColumn("completed_at", "text")
    .execute();
  await index(db, "stylized_images_user_id_created_at", "stylized_images", [
    "user_id",
    "created_at",
  ]).execute();
  await index(db, "stylized_images_image_id", "stylized_images", ["image_id"]).execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("stylized_images").execute();
  await db.schema.dropTable("images").execute();
}
