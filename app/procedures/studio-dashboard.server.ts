import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import type { UserRow } from "#db/schema";
import type { AnyProcedure } from "~/server/procedure.server";
import { defineProcedure, invoke } from "~/server/procedure.server";
import { getWebUser } from "~/server/auth.server";
import { callContext } from "~/server/context.server";
import { HttpError } from "~/server/errors.server";
import { redirectWithFlash } from "~/server/flash.server";
import { isCrossSiteMutation } from "~/server/same-origin.server";
import type { FlashMessage } from "~/lib/flash";
import { FILE_TOO_LARGE, INVALID_FILE_TYPE } from "~/lib/limits";
import type { OptimizationSettings } from "~/lib/optimization";
import { OPTIMIZATION_DEFAULTS, PRESETS } from "~/lib/optimization";
import { idSchema, optimizeSchema, stylizeSchema } from "~/lib/studio-schemas";
import { isInProgress } from "~/lib/studio-types";
import type { DashboardData, DashboardView, ImageJson, StylizedImageJson } from "~/lib/studio-types";
import { STYLE_POLL_MAX_ATTEMPTS, styleName } from "~/lib/styles";
import type { PipelineStep } from "~/lib/dashboard-url";
import { dashboardUrl, PIPELINE_STEPS } from "~/lib/dashboard-url";
import { creatorStats } from "~/services/creator-stats.server";
import { testSalesCount } from "~/server/payments/select-provider.server";
import { imageJson } from "~/services/images.server";
import { listStylized, stylizedImageJson } from "~/services/stylized-images.server";
import { toPublicUser } from "~/services/users.server";
import { deleteImage, stylizeImage, uploadImage } from "./studio-images.server";
import { deleteStylizedImage, optimizeImage } from "./studio-stylized.server";
import { publishingPlatforms } from "./publishing.server";
import { safeRedirect } from "~/lib/safe-redirect";
import { readFormData } from "~/server/http.server";

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

const loadDashboardProcedure = defineProcedure({
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

/** The dashboard's loader: a signed-out visitor is told so (the page then sends them to sign in). */
export async function dashboardLoader(args: LoaderFunctionArgs) {
  const user = await getWebUser(args.request);
  if (!user) return json({ signedIn: false as const }, { status: 401 });
  return signedInDashboard(args, user);
}

/** The dashboard's data for a signed-in creator (also the signed-in Home). */
export async function signedInDashboard(args: LoaderFunctionArgs, user: UserRow) {
  const query = Object.fromEntries(new URL(args.request.url).searchParams);
  try {
    const result = await invoke(loadDashboardProcedure, user, query, callContext(args.request, args.context));
    if (result.outcome === "redirect") throw await redirectWithFlash(result.redirect, result.flash);
    const { outcome: _outcome, ...data } = result;
    return json({ signedIn: true as const, ...data });
  } catch (error) {
    if (error instanceof HttpError) throw json({ message: error.message }, { status: error.status });
    throw error;
  }
}

/** The page to return to, no longer holding a stylized image that was just deleted. */
function withoutHeld(url: string, deletedId: string): string {
  const parsed = new URL(url, "http://localhost");
  if (parsed.searchParams.get("styled") !== deletedId) return url;
  const state = Object.fromEntries(parsed.searchParams);
  return dashboardUrl({ image: state.image, step: state.image ? "style" : undefined });
}

const UPLOAD_FAILURES: Record<number, FlashMessage> = {
  413: { kind: "error", ...FILE_TOO_LARGE },
  415: { kind: "error", ...INVALID_FILE_TYPE },
};

/**
 * The dashboard's form posts (they work without JavaScript; with it, Remix
 * submits the same forms). Every outcome is a redirect with a flash message.
 */
export async function dashboardAction(args: ActionFunctionArgs) {
  const { request } = args;
  const user = await getWebUser(request);
  if (!user) throw redirect(`/api/login?redirectTo=${encodeURIComponent("/dashboard")}`);
  if (isCrossSiteMutation(request)) throw json({ message: "Cross-site request refused" }, { status: 403 });
  const ctx = callContext(request, args.context);

  // The upload streams: the body is read by the procedure itself, never buffered here.
  if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    try {
      const image = await invoke(uploadImage, user, {}, ctx);
      return redirectWithFlash(dashboardUrl({ image: image.id, step: "upload" }), {
        kind: "success",
        title: "Upload Successful",
        description: "Your selfie has been uploaded successfully!",
      });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return redirectWithFlash(
        dashboardUrl({ step: "upload" }),
        UPLOAD_FAILURES[error.status] ?? { kind: "error", title: "Upload Failed", description: error.message },
      );
    }
  }

  const formData = await readFormData(request);
  const intent = String(formData.get("intent") ?? "");
  const back = String(formData.get("back") ?? "");
  const returnTo = back.startsWith("/dashboard") ? safeRedirect(back, "/dashboard") : "/dashboard";

  const run = async <P extends AnyProcedure>(procedure: P, schema: z.ZodType) => {
    const submission = parseWithZod(formData, { schema });
    if (submission.status !== "success") {
      const errors = Object.values(submission.error ?? {}).flat().filter(Boolean);
      throw new HttpError(400, errors[0] ?? "Please check the form and try again.");
    }
    return invoke(procedure, user, submission.value, ctx);
  };

  try {
    switch (intent) {
      case "stylize": {
        const stylized = (await run(stylizeImage, stylizeSchema)) as StylizedImageJson;
        return redirect(dashboardUrl({ image: stylized.imageId, step: "style", pending: stylized.id }));
      }
      case "optimize": {
        const stylized = (await run(optimizeImage, optimizeSchema)) as StylizedImageJson;
        return redirectWithFlash(dashboardUrl({ styled: stylized.id, step: "market" }), {
          kind: "success",
          title: "Image optimized successfully",
        });
      }
      case "delete-stylized":
      case "delete-image": {
        const { id } = (await run(intent === "delete-image" ? deleteImage : deleteStylizedImage, idSchema)) as { id: string };
        return redirectWithFlash(intent === "delete-image" ? "/dashboard" : withoutHeld(returnTo, id), {
          kind: "success",
          title: "Image Deleted",
        });
      }
      default:
        return redirectWithFlash(returnTo, { kind: "error", title: "Error", description: "Unknown action." });
    }
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const title =
      intent === "stylize" ? "Generation Failed" : intent === "optimize" ? "Optimization failed" : "Delete Failed";
    const description =
      intent.startsWith("delete") && error.status === 404 ? "Could not delete the image" : error.message;
    return redirectWithFlash(returnTo, { kind: "error", title, description });
  }
}
