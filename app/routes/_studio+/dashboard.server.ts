import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import type { AnyProcedure, CallerFor } from "~/infra/procedure.server";
import { invoke } from "~/infra/procedure.server";
import type { CallContext } from "~/infra/call-context.server";
import { HttpError } from "~/infra/errors.server";
import type { FlashMessage } from "~/lib/flash";
import { DAMAGED_IMAGE, FILE_TOO_LARGE, INVALID_FILE_TYPE } from "~/lib/limits";
import { STYLE_POLL_MAX_ATTEMPTS } from "~/lib/styles";
import { idSchema, optimizeSchema, stylizeSchema } from "~/features/studio/schemas";
import type { DashboardData, DashboardView, ImageJson, MarketState, StylizedImageJson } from "~/features/studio/types";
import { isInProgress } from "~/features/studio/types";
import type { PipelineStep } from "~/features/studio/dashboard-url";
import { atPipeline, dashboardUrl, PIPELINE_STEPS } from "~/features/studio/dashboard-url";
import type { OptimizationSettings } from "~/features/studio/optimization";
import { OPTIMIZATION_DEFAULTS, PRESETS } from "~/features/studio/optimization";
import { STYLE_FAILED_TOAST, STYLE_TIMED_OUT_TOAST, styleReadyToast } from "~/features/studio/style-toasts";
import { safeRedirect } from "~/lib/safe-redirect";
import { deleteImage, uploadImage } from "~/features/studio/procedures/images.server";
import { deleteStylizedImage, stylizeImage } from "~/features/studio/procedures/styles.server";
import { optimizeImage } from "~/features/studio/procedures/optimize.server";
import { studioWorkspace } from "~/features/studio/procedures/workspace.server";
import { myListings } from "~/features/market/procedures.server";
import { publishingPlatforms } from "~/features/publishing/procedures.server";
import { creatorPayouts, creatorStats } from "~/features/payouts/procedures.server";
import { toPublicUser } from "~/features/accounts/procedures.server";
import { giveFaceConsent } from "~/features/privacy/procedures.server";
import { faceConsentText, hasCurrentFaceConsent } from "~/features/privacy/face-consent";
import { getWebUser } from "~/web/auth.server";
import { redirectWithFlash } from "~/web/flash.server";
import { readFormData } from "~/web/http.server";
import { callContext } from "~/web/request-context.server";
import { isCrossSiteMutation } from "~/web/same-origin.server";

/**
 * The dashboard screen's loader and action (/dashboard, and / when signed in):
 * who is calling, the form posts, flash messages and redirects. The page's
 * data is composed here from the studio's, the market's, publishing's and
 * payouts' procedures; every operation is one of the studio's procedures.
 * Its state is in the URL (see ~/features/studio/dashboard-url), so it works
 * without JavaScript.
 */

const optional = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined);

/** The dashboard's URL state: what it holds, the step, a style waited for and how often the page reloaded for it. */
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

/** The dashboard's loader: a signed-out visitor is told so (the page then sends them to sign in). */
export async function dashboardLoader(args: LoaderFunctionArgs) {
  const user = await getWebUser(args.request);
  if (!user) return json({ signedIn: false as const }, { status: 401 });
  return signedInDashboard(args, user);
}

/** The dashboard's data for a signed-in creator (also the signed-in Home). */
export async function signedInDashboard(args: LoaderFunctionArgs, user: CallerFor<"user">) {
  const query = dashboardQuery.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  try {
    const ctx = callContext(args.request, args.context);
    const result = await dashboardData(user, query, ctx);
    if (result.outcome === "redirect") throw await redirectWithFlash(atPipeline(result.redirect), result.flash);
    const { outcome: _outcome, ...data } = result;
    // The Payouts card: the payout account's state and the balance.
    const payouts = await invoke(creatorPayouts, user, {}, ctx);
    return json({ signedIn: true as const, ...data, payouts });
  } catch (error) {
    if (error instanceof HttpError) throw json({ message: error.message }, { status: error.status });
    throw error;
  }
}

/**
 * The page's data, or where to go instead: the studio's workspace, the
 * creator's numbers, the market state of each finished style and, in the
 * market step's panels, the publishing platforms.
 */
async function dashboardData(user: CallerFor<"user">, input: DashboardQuery, ctx: CallContext) {
  const workspace = await invoke(studioWorkspace, user, {}, ctx);
  const { images, stylized } = workspace;
  const stats = await invoke(creatorStats, user, {}, ctx);

  const styled = input.styled ? (stylized.find((item) => item.id === input.styled) ?? null) : null;
  const image =
    (input.image ? images.find((item) => item.id === input.image) : undefined) ??
    (styled ? images.find((item) => item.id === styled.imageId) : undefined) ??
    null;
  // The style being waited for: the one the page names, else (a reload, a new visit) the image's newest still in progress.
  const pending = input.pending
    ? (stylized.find((item) => item.id === input.pending) ?? null)
    : image
      ? (stylized.find((item) => item.imageId === image.id && isInProgress(item)) ?? null)
      : null;

  // A style the page was waiting for has ended: move on, with a success or failure toast.
  if (input.pending && (!pending || !isInProgress(pending))) {
    if (pending?.status === "completed") {
      return {
        outcome: "redirect" as const,
        redirect: dashboardUrl({ styled: pending.id, step: "optimize" }),
        flash: styleReadyToast(pending.style),
      };
    }
    return { outcome: "redirect" as const, redirect: dashboardUrl({ image: image?.id, step: "style" }), flash: STYLE_FAILED_TOAST };
  }
  const poll = input.poll ?? 0;
  if (pending && poll >= STYLE_POLL_MAX_ATTEMPTS) {
    return { outcome: "redirect" as const, redirect: dashboardUrl({ image: image?.id, step: "style" }), flash: STYLE_TIMED_OUT_TOAST };
  }

  const step = pipelineStep(input, { image, styled });
  // The market step's panels offer the creator's platforms, connected or not.
  const platforms = step === "market" && styled && input.panel ? await invoke(publishingPlatforms, user, {}, ctx) : [];
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
      stylized.some(isInProgress) && poll < STYLE_POLL_MAX_ATTEMPTS ? dashboardUrl({ ...input, poll: poll + 1 }) : null,
  };
  const market = marketStates(workspace.askingPrices, await invoke(myListings, user, {}, ctx));
  const engine = workspace.styleEngine;
  const data: DashboardData = {
    user: toPublicUser(user),
    stats,
    images,
    stylized,
    market,
    view,
    faceConsent: { given: hasCurrentFaceConsent(user), paragraphs: faceConsentText(engine) },
    styleEngine: engine.kind,
  };
  return { outcome: "view" as const, ...data };
}

/**
 * The price and listed state the creator sees for each finished style: its
 * live listing's price when it has one, else its asking price (its own, else
 * the style's suggested price). The dashboard's cards and the API answer the same.
 */
function marketStates(
  askingPrices: Record<string, string>,
  listings: { stylizedImageId: string | null; price: string; status: string; platforms: { url: string | null }[] }[],
): Record<string, MarketState> {
  const market: Record<string, MarketState> = {};
  for (const [id, asking] of Object.entries(askingPrices)) {
    const listing = listings.find((item) => item.stylizedImageId === id && item.status === "active");
    market[id] = { price: listing?.price ?? asking, listed: Boolean(listing), url: listing ? (listing.platforms[0]?.url ?? null) : null };
  }
  return market;
}

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

/** The optimization panel's starting values: the held style's last settings (else the defaults), with a preset on top. */
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
 * submits the same forms). Every outcome is a redirect with a flash message,
 * to an address ending in #pipeline so the page opens at the step.
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
      return redirectWithFlash(atPipeline(dashboardUrl({ image: image.id, step: "upload" })), {
        kind: "success",
        title: "Upload Successful",
        description: "Your selfie has been uploaded successfully!",
      });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return redirectWithFlash(
        atPipeline(dashboardUrl({ step: "upload" })),
        error.message === DAMAGED_IMAGE.description
          ? { kind: "error", ...DAMAGED_IMAGE }
          : (UPLOAD_FAILURES[error.status] ?? { kind: "error", title: "Upload Failed", description: error.message }),
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
      case "give-consent": {
        await invoke(giveFaceConsent, user, { faceProcessing: true }, ctx);
        return redirectWithFlash(atPipeline(returnTo), {
          kind: "success",
          title: "Thank you",
          description: "You can now generate styles. You can withdraw your consent in Settings, Privacy.",
        });
      }
      case "stylize": {
        const stylized = (await run(stylizeImage, stylizeSchema)) as StylizedImageJson;
        return redirect(atPipeline(dashboardUrl({ image: stylized.imageId, step: "style", pending: stylized.id })));
      }
      case "optimize": {
        const stylized = (await run(optimizeImage, optimizeSchema)) as StylizedImageJson;
        return redirectWithFlash(atPipeline(dashboardUrl({ styled: stylized.id, step: "market" })), {
          kind: "success",
          title: "Image optimized successfully",
        });
      }
      case "delete-stylized":
      case "delete-image": {
        const { id } = (await run(intent === "delete-image" ? deleteImage : deleteStylizedImage, idSchema)) as { id: string };
        return redirectWithFlash(atPipeline(intent === "delete-image" ? "/dashboard" : withoutHeld(returnTo, id)), {
          kind: "success",
          title: "Image Deleted",
        });
      }
      default:
        return redirectWithFlash(atPipeline(returnTo), { kind: "error", title: "Error", description: "Unknown action." });
    }
  } catch (error) {
    if (!(error instanceof HttpError)) throw error;
    const title =
      intent === "stylize" || intent === "give-consent" ? "Generation Failed" : intent === "optimize" ? "Optimization failed" : "Delete Failed";
    const description =
      intent.startsWith("delete") && error.status === 404 ? "Could not delete the image" : error.message;
    return redirectWithFlash(atPipeline(returnTo), { kind: "error", title, description });
  }
}
