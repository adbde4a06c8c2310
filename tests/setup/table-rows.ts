import type { DB } from "~/infra/db.server";

/**
 * Rows for `insertInto(…).values(…)` with only the columns every version of
 * the schema had, so they fit today's tables and a database migrated to
 * before a later migration (see migration-steps.ts) alike. What a test sets
 * itself goes in `fields`. Each is typed `never` for that reason.
 */

type Fields = Record<string, unknown>;

export function userRow(id: string, at: string, fields: Fields = {}) {
  const names = { email: "c@example.com", first_name: "C", last_name: "R" };
  return { id, ...names, password_hash: "x", created_at: at, updated_at: at, ...fields } as never;
}

/** An uploaded original, `of.id`, of the user `of.user_id`. */
export function imageRow(of: { id: string; user_id: string }, at: string, fields: Fields = {}) {
  const file = { file_key: `originals/${of.id}.png`, bytes: 1, mime_type: "image/png" };
  return { ...of, ...file, width: 1, height: 1, created_at: at, ...fields } as never;
}

/** A stylized version, `of.id`, of the image `of.image_id`. */
export function stylizedImageRow(
  of: { id: string; image_id: string; user_id: string },
  at: string,
  fields: Fields = {},
) {
  const made = { style: "anime", provider: "fal", file_key: `styled/${of.id}.jpg` };
  return { ...of, ...made, created_at: at, updated_at: at, ...fields } as never;
}

/** A listing, `of.id`, of `of.user_id`'s made from the stylized image `of.stylized_image_id` (null: the image is gone). */
export function listingRow(
  of: { id: string; user_id: string; stylized_image_id: string | null },
  at: string,
  fields: Fields = {},
) {
  return {
    ...of,
    style: "anime",
    title: of.id,
    price_cents: 1000,
    file_key: `listings/${of.id}.jpg`,
    file_mime_type: "image/jpeg",
    source_file_key: `styled/${of.id}.jpg`,
    width: 1,
    height: 1,
    preview_key: `previews/${of.id}.jpg`,
    created_at: at,
    updated_at: at,
    ...fields,
  } as never;
}

/** Creator "u1" and their uploaded image "i1" (with `imageFields`), the start of a listing's rows. */
export async function insertCreatorWithImage(db: DB, at: string, imageFields: Fields = {}) {
  await db.insertInto("users").values(userRow("u1", at)).execute();
  await db
    .insertInto("images")
    .values(imageRow({ id: "i1", user_id: "u1" }, at, imageFields))
    .execute();
}
