import type { DB } from "~/infra/db.server";
import { keyExtension, type ExportedFile } from "~/lib/exported-files";

/**
 * The creator's own studio files for their data export: every uploaded
 * original, every finished style and every optimized version, named by the
 * row they belong to. Only files the creator's rows name; a style still in
 * progress has no file yet.
 */
export async function creatorStudioFiles(db: DB, userId: string): Promise<ExportedFile[]> {
  const [originals, styles] = await Promise.all([
    db
      .selectFrom("images")
      .select(["id", "file_key"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("stylized_images")
      .select(["id", "file_key", "optimized_file_key"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
  ]);
  const files: ExportedFile[] = originals.map((image) => ({
    key: image.file_key,
    name: `images/originals/${image.id}.${keyExtension(image.file_key)}`,
  }));
  for (const style of styles) {
    if (style.file_key)
      files.push({
        key: style.file_key,
        name: `images/styles/${style.id}.${keyExtension(style.file_key)}`,
      });
    if (style.optimized_file_key) {
      files.push({
        key: style.optimized_file_key,
        name: `images/optimized/${style.id}.${keyExtension(style.optimized_file_key)}`,
      });
    }
  }
  return files;
}

/** Who processed a file, in words, from the engine or upscaler recorded on its row. */
function processedBy(method: string | null): string | null {
  if (method === null) return null;
  if (method === "local" || method === "lanczos3") return "this server";
  return `fal.ai (${method})`;
}

/**
 * The metadata of each upload and style of the creator's, for their data
 * export (images.json): sizes, dates, how an upload compares with their
 * verified face, and which engine or vendor made or enlarged each file.
 */
export async function creatorStudioRecords(db: DB, userId: string) {
  const [uploads, styles] = await Promise.all([
    db
      .selectFrom("images")
      .select([
        "id",
        "created_at",
        "width",
        "height",
        "bytes",
        "mime_type",
        "likeness",
        "original_removed_at",
      ])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("stylized_images")
      .select([
        "id",
        "image_id",
        "style",
        "status",
        "provider",
        "width",
        "height",
        "upscaled_by",
        "seed",
        "optimized_format",
        "optimized_resolution",
        "optimized_width",
        "optimized_height",
        "optimized_upscaled_by",
        "created_at",
        "completed_at",
      ])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
  ]);
  return {
    uploads: uploads.map((row) => ({
      id: row.id,
      uploadedAt: row.created_at,
      width: row.width,
      height: row.height,
      bytes: row.bytes,
      type: row.mime_type,
      likeness: row.likeness,
      originalRemovedAt: row.original_removed_at,
    })),
    styles: styles.map((row) => ({
      id: row.id,
      uploadId: row.image_id,
      style: row.style,
      status: row.status,
      madeBy: processedBy(row.provider),
      width: row.width,
      height: row.height,
      enlargedBy: processedBy(row.upscaled_by),
      seed: row.seed,
      optimized: row.optimized_format
        ? {
            format: row.optimized_format,
            resolution: row.optimized_resolution,
            width: row.optimized_width,
            height: row.optimized_height,
            enlargedBy: processedBy(row.optimized_upscaled_by),
          }
        : null,
      createdAt: row.created_at,
      completedAt: row.completed_at,
    })),
  };
}
