import type { DB } from "~/infra/db.server";
import type { ImageJson } from "~/features/studio/types";
import { listEveryImage } from "~/features/studio/public.server";

/** Every uploaded original with its owner, newest first (GET /api/admin/images), as the studio describes an image. */
export function listAllImages(db: DB): Promise<ImageJson[]> {
  return listEveryImage(db);
}
