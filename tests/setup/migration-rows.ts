import type { DB } from "~/infra/db.server";

/**
 * Rows as the code before a migration wrote them, for
 * `insertInto(…).values(…)` on a database migrated to before it
 * (see migration-steps.ts): the columns every version had, with what a test
 * sets itself in `fields`. Each is typed `never` so a row fits the table as
 * it was, not as the schema is today.
 */

export function userRowBefore(id: string, at: string, fields: Record<string, unknown> = {}) {
  return {
    id,
    email: "c@example.com",
    first_name: "C",
    last_name: "R",
    password_hash: "x",
    created_at: at,
    updated_at: at,
    ...fields,
  } as never;
}

export function imageRowBefore(
  id: string,
  userId: string,
  at: string,
  fields: Record<string, unknown> = {},
) {
  return {
    id,
    user_id: userId,
    file_key: `originals/${id}.png`,
    width: 1,
    height: 1,
    bytes: 1,
    mime_type: "image/png",
    created_at: at,
    ...fields,
  } as never;
}

export function stylizedImageRowBefore(
  id: string,
  imageId: string,
  userId: string,
  at: string,
  fields: Record<string, unknown> = {},
) {
  return {
    id,
    image_id: imageId,
    user_id: userId,
    style: "anime",
    provider: "fal",
    file_key: `styled/${id}.jpg`,
    created_at: at,
    updated_at: at,
    ...fields,
  } as never;
}

/** A listing of `userId`'s made from the stylized image `stylizedImageId` (null: the image is gone). */
export function listingRowBefore(
  id: string,
  userId: string,
  stylizedImageId: string | null,
  at: string,
  fields: Record<string, unknown> = {},
) {
  return {
    id,
    user_id: userId,
    stylized_image_id: stylizedImageId,
    style: "anime",
    title: id,
    price_cents: 1000,
    file_key: `listings/${id}.jpg`,
    file_mime_type: "image/jpeg",
    source_file_key: `styled/${id}.jpg`,
    width: 1,
    height: 1,
    preview_key: `previews/${id}.jpg`,
    created_at: at,
    updated_at: at,
    ...fields,
  } as never;
}

/** Creator "u1" and their uploaded image "i1" (with `imageFields`), the start of a listing's rows. */
export async function insertCreatorWithImageBefore(
  db: DB,
  at: string,
  imageFields: Record<string, unknown> = {},
) {
  await db.insertInto("users").values(userRowBefore("u1", at)).execute();
  await db
    .insertInto("images")
    .values(imageRowBefore("i1", "u1", at, imageFields))
    .execute();
}
