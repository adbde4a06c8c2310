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
