import { describe, expect, it } from "vitest";
import { sqliteBeforeMigration } from "#tests/setup/migration-steps";
import { insertCreatorWithImage, listingRow, stylizedImageRow } from "#tests/setup/table-rows";

const { db, migrateToBefore, migrateRest } = sqliteBeforeMigration(
  "2026-11-29-0055-listing-source-type",
);

describe("migration 0055 on a database with listings", () => {
  it("labels the listings of fal-made styles trainedAlgorithmicMedia and the others composite", async () => {
    await migrateToBefore();
    const now = new Date().toISOString();
    await insertCreatorWithImage(db, now);
    for (const provider of ["local", "fal"]) {
      await db
        .insertInto("stylized_images")
        .values(
          stylizedImageRow({ id: `s-${provider}`, image_id: "i1", user_id: "u1" }, now, {
            provider,
            file_key: `styled/${provider}.jpg`,
          }),
        )
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
        .values(listingRow({ id, user_id: "u1", stylized_image_id: stylized }, now))
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
