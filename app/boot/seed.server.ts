import crypto from "node:crypto";
import type { DB } from "~/infra/db.server";
import { getConfig, type Config } from "~/infra/config.server";
import { currentFaceConsent, recordFaceConsent } from "~/features/privacy/public.server";
import { SUPER_ADMIN_ID } from "~/lib/accounts";
import fsp from "node:fs/promises";
import sharp from "sharp";
import { DEMO_CREATOR } from "#db/demo-account";
import { createUser, findUserByEmail, findUserById } from "~/features/accounts/users.server";
import { getFileStore, newFileKey } from "~/infra/file-store.server";
import { newId } from "~/infra/ids.server";
import { STYLES, suggestedPrice } from "~/lib/styles";
import { listingInputSchema } from "~/features/market/catalog/listing-schema";
import { readUploadedPicture, storeUploadedImage } from "~/features/studio/images/images.server";
import { likenessOfUpload } from "~/features/studio/images/likeness.server";
import { verifyFaceFromPicture } from "~/features/privacy/procedures/verified-face.server";
import { DESCRIBE_EDGE } from "~/engines/styling/vision/face-descriptor.server";
import { listStylizedImage } from "~/features/market/catalog/listings.server";
import { createLocalEngine } from "~/engines/styling/local-engine.server";
import { findSampleSource } from "~/engines/styling/style-samples.server";
import {
  contentCredentialsFor,
  originalIngredient,
  styledFileFacts,
} from "~/engines/provenance/content-credentials.server";

export { DEMO_CREATOR };

/**
 * The super admin (id `super-admin`) exists from the first start. Without
 * ADMIN_PASSWORD a password is generated and printed once; it is never stored
 * in plain text.
 */
export async function ensureSuperAdmin(
  db: DB,
  config: Pick<Config, "ADMIN_EMAIL" | "ADMIN_PASSWORD">,
  log: (line: string) => void = console.log,
) {
  if (await findUserById(db, SUPER_ADMIN_ID)) return { created: false as const };
  const password = config.ADMIN_PASSWORD ?? crypto.randomBytes(12).toString("base64url");
  await createUser(db, {
    id: SUPER_ADMIN_ID,
    email: config.ADMIN_EMAIL,
    password,
    firstName: "Super",
    lastName: "Admin",
  });
  if (!config.ADMIN_PASSWORD) {
    log(
      [
        "",
        "  Super admin created.",
        `    email:    ${config.ADMIN_EMAIL}`,
        `    password: ${password}`,
        "  This password is shown once. Change it with: npm run user:reset-password -- <email>",
        "",
      ].join("\n"),
    );
  } else {
    log(`Super admin created: ${config.ADMIN_EMAIL} (password from ADMIN_PASSWORD).`);
  }
  return { created: true as const };
}

/** The long edge the demo styles are drawn at, in pixels (their outlines and grain at a useful size). */
export const DEMO_LONG_EDGE = 1024;

/**
 * Demo data for local use: a creator account with a known password, and the
 * bundled public-domain portrait styled four ways by the local engine and
 * listed on the marketplace, so a fresh local install has something to browse and buy.
 * The portrait is 512 px: it is enlarged (Lanczos-3) to DEMO_LONG_EDGE before
 * styling, so the styles are drawn larger than the portrait; each styled image
 * records that enlargement and the pixels the portrait really had. Listing
 * makes the file a buyer gets at its sale size like any listing's (at least
 * 2048 px, upscaled with Lanczos-3, which the file and the listing page say;
 * docs/decisions/092).
 */
export async function seedDemo(db: DB, log: (line: string) => void = console.log) {
  if (await findUserByEmail(db, DEMO_CREATOR.email)) return;
  const created = await createUser(db, DEMO_CREATOR);
  // The demo creator is shown styling at once: their consent to face processing is part of the demo.
  const creator = await recordFaceConsent(
    db,
    created.id,
    new Date(),
    currentFaceConsent(getConfig()),
  );
  log(`Demo creator created: ${DEMO_CREATOR.email} / ${DEMO_CREATOR.password}`);

  const store = getFileStore();
  const now = new Date();
  // Only faces that agreed are sold (decision record 085): the demo creator stands for the
  // person of the bundled public-domain portrait (db/seed-assets/README.md), whose face it
  // verifies through the same service as Settings, Privacy, so the portrait's likeness is
  // measured (`self`) like any upload's.
  await verifyFaceFromPicture(db, {
    userId: creator.id,
    picture: await readUploadedPicture(findSampleSource(), DESCRIBE_EDGE),
    now,
  });
  const scratch = await store.scratchPath();
  await fsp.copyFile(findSampleSource(), scratch);
  const original = await storeUploadedImage(db, store, {
    userId: creator.id,
    sourcePath: scratch,
    now,
    likenessOf: (picture) => likenessOfUpload(db, creator.id, picture),
  });
  const stored = await store.read(original.file_key);
  const source = await sharp(stored).metadata();
  const enlargement = DEMO_LONG_EDGE / Math.max(source.width ?? 1, source.height ?? 1);
  const input =
    enlargement > 1
      ? await sharp(stored)
          .resize(DEMO_LONG_EDGE, DEMO_LONG_EDGE, { fit: "inside", kernel: "lanczos3" })
          .png()
          .toBuffer()
      : stored;
  const engine = createLocalEngine();
  const credentials = contentCredentialsFor(getConfig());
  for (const style of STYLES) {
    const result = await engine.stylize(input, style.id);
    // Signed as the styling job signs (decision 095): the demo's files carry Content Credentials too.
    const data = await credentials.sign(
      result.data,
      styledFileFacts(result.data, { original: originalIngredient(stored), when: now }),
    );
    const key = newFileKey("styled", result.format);
    await store.write(key, data);
    const id = newId();
    await db
      .insertInto("stylized_images")
      .values({
        id,
        image_id: original.id,
        user_id: creator.id,
        style: style.id,
        status: "completed",
        provider: engine.id,
        file_key: key,
        width: result.width,
        height: result.height,
        bytes: data.length,
        upscaled_by: enlargement > 1 ? "lanczos3" : (result.upscaledBy ?? null),
        native_width: Math.round((result.native?.width ?? result.width) / Math.max(1, enlargement)),
        native_height: Math.round(
          (result.native?.height ?? result.height) / Math.max(1, enlargement),
        ),
        error: null,
        price_cents: null,
        optimized_file_key: null,
        optimized_format: null,
        optimized_quality: null,
        optimized_resolution: null,
        optimized_width: null,
        optimized_height: null,
        optimized_bytes: null,
        watermark: null,
        social_optimized: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
        completed_at: now.toISOString(),
      })
      .execute();
    await listStylizedImage(db, store, {
      credentials: credentials,
      userId: creator.id,
      input: listingInputSchema.parse({
        stylizedImageId: id,
        title: `Astronaut Portrait, ${style.name}`,
        description: demoDescription(style.name),
        price: String(suggestedPrice(style.id)),
        tags: `astronaut, portrait, ${style.id}`,
        licensingEnabled: "on",
      }),
      now,
    });
  }
  log("Demo listings created: the sample portrait in four styles, on the marketplace.");
}

/** The demo listing's description, with the article its style's name takes ("An anime take", "A cartoon take"). */
export function demoDescription(styleName: string): string {
  const name = styleName.toLowerCase();
  return `${/^[aeiou]/.test(name) ? "An" : "A"} ${name} take on a public-domain NASA portrait (demo listing).`;
}
