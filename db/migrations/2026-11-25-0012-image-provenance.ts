import type { AnyDb } from "./helpers";

// Frozen: a migration never imports app code and never changes once landed.
//
// How a styled file reached its size, so a buyer's file is honest about it:
// - stylized_images.upscaled_by: the method that enlarged the styled image
//   when the engine's result was smaller than the upload (up to 2048 px on the
//   long edge): null when it was not enlarged, "lanczos3" (sharp's Lanczos
//   resampling) or a fal.ai upscaler's endpoint id such as "fal-ai/esrgan";
// - stylized_images.optimized_upscaled_by: the same for the optimized
//   version, when its resolution preset had to enlarge it (e.g. "2048x2048").
// The engine that made each image is stylized_images.provider already; its
// IPTC digital source type follows from it.

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable("stylized_images").addColumn("upscaled_by", "text").execute();
  await db.schema
    .alterTable("stylized_images")
    .addColumn("optimized_upscaled_by", "text")
    .execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable("stylized_images").dropColumn("optimized_upscaled_by").execute();
  await db.schema.alterTable("stylized_images").dropColumn("upscaled_by").execute();
}
