import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { styleEngineInUse } from "~/engines/styling/select-style-engine.server";
import { imageJson } from "~/features/studio/images/images.server";
import { listStylized, stylizedImageJson } from "~/features/studio/styles/stylized-images.server";
import { originalRemovalDate } from "~/features/studio/images/original-retention.server";
import { askingPrice } from "~/features/studio/styles/procedures.server";
import { creatorStats as statsOf } from "~/features/studio/workspace/creator-stats.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";
import { hasCurrentFaceConsent } from "~/features/privacy/face-consent";
import { currentFaceConsent } from "~/features/privacy/public.server";

/**
 * The creator's studio at a glance, for the dashboard: the originals still
 * kept (newest first, each with the day retention removes it), every style,
 * the asking price of each completed one, the engine that styles now, and
 * the consent to face processing: whether the creator agreed to the text this
 * engine's styling is described by, and that text (asked for again when not).
 */
export const studioWorkspace = defineProcedure({
  name: "studio.workspace",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    const imageRows = await ctx.db
      .selectFrom("images")
      .selectAll()
      .where("user_id", "=", user.id)
      .where("original_removed_at", "is", null)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute();
    const stylizedRows = await listStylized(ctx.db, user.id);
    const consentText = currentFaceConsent(ctx.config);
    const askingPrices: Record<string, string> = {};
    for (const row of stylizedRows)
      if (row.status === "completed") askingPrices[row.id] = askingPrice(row);
    return {
      images: imageRows.map((row) => ({
        ...imageJson(row),
        removesAt: originalRemovalDate(row.created_at, ctx.config.ORIGINALS_RETENTION_DAYS),
      })),
      stylized: stylizedRows.map((row) => stylizedImageJson(row, row.original_file_key)),
      askingPrices,
      styleEngine: styleEngineInUse(ctx.config),
      faceConsent: {
        given: hasCurrentFaceConsent(user, consentText.version),
        paragraphs: consentText.paragraphs,
        outdated:
          user.face_consent_at !== null && !hasCurrentFaceConsent(user, consentText.version),
      },
    };
  },
});

/** The caller's studio and sales numbers (GET /api/token-stats and the dashboard's stat cards). */
export const creatorStats = defineProcedure({
  name: "creatorStats",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) =>
    statsOf(ctx.db, user.id, { includeTestSales: testSalesCount(ctx.config) }),
});
