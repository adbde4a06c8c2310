import type { DB } from "~/infra/db.server";
import type { AdminImage } from "~/features/admin/types";
import { signedMediaUrl } from "~/infra/signed-urls.server";

/** Every uploaded original with its owner, newest first (GET /api/admin/images). */
export async function listAllImages(db: DB): Promise<AdminImage[]> {
  const rows = await db.selectFrom("images").selectAll().orderBy("created_at", "desc").orderBy("id").execute();
  return rows.map((row) => ({
    id: row.id,
    userId: row.user_id,
    originalUrl: signedMediaUrl(row.file_key),
    width: row.width,
    height: row.height,
    bytes: row.bytes,
    mimeType: row.mime_type,
    createdAt: row.created_at,
  }));
}
