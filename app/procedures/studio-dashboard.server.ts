import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import type { FlashMessage } from "~/lib/flash";
import type { OptimizationSettings } from "~/lib/optimization";
import { OPTIMIZATION_DEFAULTS, PRESETS } from "~/lib/optimization";
import { isInProgress } from "~/lib/studio-types";
import type { DashboardData, DashboardView, ImageJson, StylizedImageJson } from "~/lib/studio-types";
import { STYLE_POLL_MAX_ATTEMPTS, styleName } from "~/lib/styles";
import type { PipelineStep } from "~/lib/dashboard-url";
import { dashboardUrl, PIPELINE_STEPS } from "~/lib/dashboard-url";
import { creatorStats } from "~/services/creator-stats.server";
import { testSalesCount } from "~/infra/payments/select-provider.server";
import { imageJson } from "~/services/images.server";
import { listStylized, stylizedImageJson } from "~/services/stylized-images.server";
import { toPublicUser } from "~/services/users.server";
import { publishingPlatforms } from "./publishing.server";

/**
 * The dashboard screen (/dashboard, and / when signed in): its data and its
 * form actions. Its state is in the URL (see ~/lib/dashboard-url), so it works
 * without JavaScript.
 */

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

export const dashboardQuery = z.object({
  image: optional(z.string().min(1).max(64)),
  styled: optional(z.string().min(1).max(64)),
  step: optional(z.enum(PIPELINE_STEPS)),
  pending: optional(z.string().min(1).max(64)),
  poll: optional(z.coerce.number().int().min(0).max(1000)),
  preset: optional(z.enum(Object.keys(PRESETS) as [keyof typeof PRESETS, ...(keyof typeof PRESETS)[]])),
  panel: optional(z.enum(["launch", "sell"])),
});
export type DashboardQuery = z.infer<typeof dashboardQuery>;

/** The dashboard screen's data for a signed-in creator (the route module composes it: app/routes/dashboard.server.ts). */
export const loadDashboardProcedure = defineProcedure({
  name: "studio.dashboard",
  access: "user",
  input: dashboardQuery,
  async run({ input, user, ctx }) {
    const images = await ctx.db
      .selectFrom("images")
      .selectAll()
      .where("user_id", "=", user.id)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .execute();
    const stylizedRows = await listStylized(ctx.db, user.id);
    const stylized = stylizedRows.map((row) => stylizedImageJson(row, row.original_file_key));
    const stats = await creatorStats(ctx.db, user.id, { includeTestSales: testSalesCount(ctx.config) });
    const imageList = images.map(imageJson);

    const styled = input.styled ? (stylized.find((item) => item.id === input.styled) ?? null) : null;
    const image =
      (input.image ? imageList.find((item) => item.id === input.image) : undefined) ??
      (styled ? imageList.find((item) => item.id === styled.imageId) : undefined) ??
      null;
    const pending = input.pending ? (stylized.find((item) => item.id === input.pending) ?? null) : null;

    // A style a page without JavaScript was waiting for has ended: move on, with a success or failure toast.
    if (input.pending && (!pending || !isInProgress(pending))) {
      if (pending?.status === "completed") {
        return {
          outcome: "redirect" as const,
          redirect: dashboardUrl({ styled: pending.id, step: "optimize" }),
          flash: {
            kind: "success",
            title: "AI Style Generated!",
            description: `Your ${styleName(pending.style)} transformation is complete.`,
          } satisfies FlashMessage,
        };
      }
      return {
        outcome: "redirect" as const,
        redirect: dashboardUrl({ image: image?.id, step: "style" }),
        flash: { kind: "error", title: "Generation Failed", description: "AI processing failed" } satisfies FlashMessage,
      };
    }
    const poll = input.poll ?? 0;
    if (pending && poll >= STYLE_POLL_MAX_ATTEMPTS) {
      return {
        outcome: "redirect" as const,
        redirect: dashboardUrl({ image: image?.id, step: "style" }),
        flash: { kind: "error", title: "Generation Failed", description: "AI processing timed out" } satisfies FlashMessage,
      };
    }

    const step = pipelineStep(input, { image, styled });
    // The market step's panels offer the creator's platforms, connected or not.
    const platforms =
      step === "market" && styled && input.panel ? await publishingPlatforms.run({ input: {}, user, ctx }) : [];
    const view: DashboardView = {
      step,
      image,
      styled,
      pending,
      panel: input.panel ?? null,
      platforms,
      preset: input.preset ?? null,
      optimization: startingSettings(styled, input.preset),
      refreshUrl:
        stylized.some(isInProgress) && poll < STYLE_POLL_MAX_ATTEMPTS
          ? dashboardUrl({ ...input, poll: poll + 1 })
          : null,
    };
    const data: DashboardData = { user: toPublicUser(user), stats, images: imageList, stylized, view };
    return { outcome: "view" as const, ...data };
  },
});

/** The step shown: the one asked for when what it holds is there, else the furthest one the held images allow. */
export function pipelineStep(
  query: Pick<DashboardQuery, "step">,
  held: { image: ImageJson | null; styled: StylizedImageJson | null },
): PipelineStep {
  const styledReady = held.styled?.status === "completed";
  switch (query.step) {
    case "upload":
      return "upload";
    case "style":
      return "style";
    case "optimize":
    case "market":
      return styledReady ? query.step : held.image ? "style" : "upload";
    default:
      if (styledReady) return "optimize";
      return held.image ? "style" : "upload";
  }
}

function startingSettings(styled: StylizedImageJson | null, preset: keyof typeof PRESETS | undefined): OptimizationSettings {
  const base: OptimizationSettings =
    styled?.optimizedUrl && styled.format && styled.quality !== null && styled.resolution
      ? {
          quality: styled.quality,
          format: styled.format,
          resolution: styled.resolution,
          watermark: styled.watermark ?? OPTIMIZATION_DEFAULTS.watermark,
          socialOptimized: styled.socialOptimized ?? OPTIMIZATION_DEFAULTS.socialOptimized,
        }
      : OPTIMIZATION_DEFAULTS;
  return preset ? { ...base, ...PRESETS[preset] } : base;
}
