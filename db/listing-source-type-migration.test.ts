import { describe, expect, it } from "vitest";
import { sqliteBeforeMigration } from "#tests/setup/migration-steps";

const { db, migrateToBefore, migrateRest } = sqliteBeforeMigration(
  "2026-11-29-0055-listing-source-type",
);

describe("migration 0055 on a database with listings", () => {
  it("labels the listings of fal-made styles trainedAlgorithmicMedia and the others composite", async () => {
    await migrateToBefore();
    const now = new Date().toISOString();
    await db
      .insertInto("users")
      .values({
        id: "u1",
        email: "c@example.com",
        first_name: "C",
        last_name: "R",
        password_hash: "x",
        created_at: now,
        updated_at: now,
      })
      .execute();
    await db
      .insertInto("images")
      .values({
        id: "i1",
        user_id: "u1",
        file_key: "originals/i1.png",
        width: 1,
        height: 1,
        bytes: 1,
        mime_type: "image/png",
        created_at: now,
      })
      .execute();
    for (const provider of ["local", "fal"]) {
      await db
        .insertInto("stylized_images")
        .values({
          id: `s-${provider}`,
          image_id: "i1",
          user_id: "u1",
          style: "anime",
          provider,
          file_key: `styled/${provider}.jpg`,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }
    const listings: [id: string, stylizedImageId: string | null][] = [
      ["l-local", "s-local"],
      ["l-fal", "s-fal"],
      ["l-gone", null],
    ];
    for (const [id, stylized] of listings) {
      await db
        .insertInto("listings")
        .values({
          id,
          user_id: "u1",
          stylized_image_id: stylized,
          style: "anime",
          title: id,
          price_cents: 1000,
          file_key: `listings/${id}.jpg`,
          file_mime_type: "image/jpeg",
          source_file_key: `styled/${id}.jpg`,
          width: 1,
          height: 1,
          preview_key: `previews/${id}.jpg`,
          created_at: now,
          updated_at: now,
        })
        .execute();
    }

    await migrateRest();

    const rows = await db
      .selectFrom("listings")
      .select(["id", "source_type"])
      .orderBy("id")
      .execute();
    expect(rows).toEqual([
      { id: "l-fal", source_type: "trainedAlgorithmicMedia" },
      { id: "l-gone", source_type: "composite" },
      { id: "l-local", source_type: "composite" },
    ]);
  });
});
