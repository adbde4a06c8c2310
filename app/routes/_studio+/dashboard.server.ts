import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { z } from "zod";
import type { CallerFor } from "~/infra/procedure.server";
import type { FlashMessage } from "~/lib/flash";
import { STYLE_POLL_MAX_ATTEMPTS } from "~/lib/styles";
import { idSchema, optimizeSchema, stylizeSchema } from "~/features/studio/schemas";
import type {
  DashboardData,
  DashboardView,
  ImageJson,
  MarketState,
  StylizedImageJson,
} from "~/features/studio/types";
import { isInProgress } from "~/features/studio/types";
import type { PipelineStep } from "~/features/studio/workspace/dashboard-url";
import {
  atPipeline,
  dashboardUrl,
  PIPELINE_STEPS,
} from "~/features/studio/workspace/dashboard-url";
import { LOGGED_OUT_MESSAGE, SIGN_IN_AGAIN_URL } from "~/features/studio/studio-api";
import type { UploadAnswer } from "~/features/studio/images/upload-toasts";
import {
  UPLOAD_FETCHER_PARAM,
  uploadRefusedToast,
  uploadToast,
} from "~/features/studio/images/upload-toasts";
import type { OptimizationSettings } from "~/features/studio/optimize/optimization";
import { OPTIMIZATION_DEFAULTS, PRESETS } from "~/features/studio/optimize/optimization";
import {
  STYLE_FAILED_TOAST,
  STYLE_TIMED_OUT_TOAST,
  styleReadyToast,
} from "~/features/studio/styles/style-toasts";
import { safeRedirect } from "~/lib/safe-redirect";
import { giveFaceConsent } from "~/features/privacy/procedures/face-consent.server";
import { deleteImage, uploadImage } from "~/features/studio/images/procedures.server";
import {
  deleteStylizedImage,
  rerollStyle,
  stylizeAllStyles,
  stylizeImage,
} from "~/features/studio/styles/procedures.server";
import { optimizeImage } from "~/features/studio/optimize/procedures.server";
import { creatorStats, studioWorkspace } from "~/features/studio/workspace/procedures.server";
import { publishingPlatforms } from "~/features/publishing/integrations/procedures.server";
import { toPublicUser } from "~/features/accounts/public.server";
import { myListings } from "~/features/market/catalog/creator-listings.procedures.server";
import { creatorPayouts } from "~/features/payouts/ledger/procedures.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { redirectWithFlash } from "~/web/flash.server";
import { readFormData } from "~/web/http.server";
import type { Refusal } from "~/web/screen-action.server";
import { intent, loadProcedure, screenAction, screenCall } from "~/web/screen-action.server";

/**
 * The dashboard screen's loader and action (/dashboard, and / when signed in):
 * who is calling, the form posts, flash messages and redirects. The page's
 * data is composed here from the studio's, the market's, publishing's and
 * payouts' procedures; every operation is one of the studio's procedures.
 * Its state is in the URL (see ~/features/studio/workspace/dashboard-url), so it works
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
  preset: optional(
    z.enum(Object.keys(PRESETS) as [keyof typeof PRESETS, ...(keyof typeof PRESETS)[]]),
  ),
  panel: optional(z.enum(["launch", "sell"])),
});
export type DashboardQuery = z.infer<typeof dashboardQuery>;

/** The dashboard's loader: a signed-out visitor is told so (the page then sends them to sign in). */
export async function dashboardLoader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "optional" });
  if (!user) return json({ signedIn: false as const }, { status: 401 });
  return signedInDashboard(args, user);
}

/** The dashboard's data for a signed-in creator (also the signed-in Home); a refused procedure is answered with its status and `{ message }`. */
export async function signedInDashboard(args: LoaderFunctionArgs, user: CallerFor<"user">) {
  const query = dashboardQuery.parse(Object.fromEntries(new URL(args.request.url).searchParams));
  const result = await dashboardData(args, user, query);
  if (result.outcome === "redirect")
    throw await redirectWithFlash(atPipeline(result.redirect), result.flash);
  const { outcome: _outcome, ...data } = result;
  // The Payouts card: the payout account's state and the balance.
  const payouts = await loadProcedure(creatorPayouts, args, {}, user);
  return json({ signedIn: true as const, ...data, payouts });
}

/**
 * The page's data, or where to go instead: the studio's workspace, the
 * creator's numbers, the market state of each finished style and, in the
 * market step's panels, the publishing platforms.
 */
async function dashboardData(
  args: LoaderFunctionArgs,
  user: CallerFor<"user">,
  input: DashboardQuery,
) {
  const workspace = await loadProcedure(studioWorkspace, args, {}, user);
  const { images, stylized } = workspace;
  const stats = await loadProcedure(creatorStats, args, {}, user);

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
    return {
      outcome: "redirect" as const,
      redirect: dashboardUrl({ image: image?.id, step: "style" }),
      flash: STYLE_FAILED_TOAST,
    };
  }
  const poll = input.poll ?? 0;
  if (pending && poll >= STYLE_POLL_MAX_ATTEMPTS) {
    return {
      outcome: "redirect" as const,
      redirect: dashboardUrl({ image: image?.id, step: "style" }),
      flash: STYLE_TIMED_OUT_TOAST,
    };
  }

  const step = pipelineStep(input, { image, styled });
  // The market step's panels offer the creator's platforms, connected or not.
  const platforms =
    step === "market" && styled && input.panel
      ? await loadProcedure(publishingPlatforms, args, {}, user)
      : [];
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
  const market = marketStates(
    workspace.askingPrices,
    await loadProcedure(myListings, args, {}, user),
  );
  const engine = workspace.styleEngine;
  const data: DashboardData = {
    user: toPublicUser(user),
    stats,
    images,
    stylized,
    market,
    view,
    faceConsent: workspace.faceConsent,
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
  listings: {
    stylizedImageId: string | null;
    price: string;
    extendedPrice?: string | null;
    exclusivePrice?: string | null;
    status: string;
    platforms: { url: string | null }[];
  }[],
): Record<string, MarketState> {
  const market: Record<string, MarketState> = {};
  for (const [id, asking] of Object.entries(askingPrices)) {
    const listing = listings.find(
      (item) => item.stylizedImageId === id && item.status === "active",
    );
    market[id] = {
      price: listing?.price ?? asking,
      extendedPrice: listing?.extendedPrice ?? null,
      exclusivePrice: listing?.exclusivePrice ?? null,
      listed: Boolean(listing),
      url: listing ? (listing.platforms[0]?.url ?? null) : null,
    };
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
function startingSettings(
  styled: StylizedImageJson | null,
  preset: keyof typeof PRESETS | undefined,
): OptimizationSettings {
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

/** What the creator is told when a dashboard form is refused, by the form's intent. */
function refusedToast(intent: string, refusal: Refusal): FlashMessage {
  const title =
    intent === "stylize" ||
    intent === "stylize-all" ||
    intent === "reroll" ||
    intent === "give-consent"
      ? "Generation Failed"
      : intent === "optimize"
        ? "Optimization failed"
        : "Delete Failed";
  const description =
    intent.startsWith("delete") && refusal.status === 404
      ? "Could not delete the image"
      : refusal.message || "Please check the form and try again.";
  return { kind: "error", title, description };
}

/**
 * The dashboard's form posts (they work without JavaScript; with it, Remix
 * submits the same forms). Every outcome is a redirect with a flash message,
 * to an address ending in #pipeline so the page opens at the step; a post
 * from another site is refused (403).
 */
export async function dashboardAction(args: ActionFunctionArgs) {
  const { request } = args;
  const upload = (request.headers.get("Content-Type") ?? "")
    .toLowerCase()
    .startsWith("multipart/form-data");
  // The upload widget's fetcher (with JavaScript) is answered with data, the form without it with a redirect.
  const toFetcher = upload && new URL(request.url).searchParams.get(UPLOAD_FETCHER_PARAM) === "1";
  const answer = (body: UploadAnswer, status = 200) => json(body, { status });
  const user = await requireScreenUser(request, { access: "optional" });
  if (!user) {
    // The widget says the creator is logged out and sends them to sign in, as the page's forms do.
    if (toFetcher)
      return answer({ ok: false, status: 401, message: LOGGED_OUT_MESSAGE.description }, 401);
    throw redirect(SIGN_IN_AGAIN_URL);
  }

  // The upload streams: the body is read by the procedure itself, never buffered here.
  if (upload) {
    return screenCall(args, {
      procedure: uploadImage,
      input: {},
      user,
      onSuccess: ({ result: outcome }) =>
        toFetcher
          ? answer({ ok: true, images: outcome.images, refused: outcome.refused })
          : redirectWithFlash(
              atPipeline(dashboardUrl({ image: outcome.images[0]!.id, step: "upload" })),
              uploadToast({
                files: outcome.files,
                stored: outcome.images.length,
                refused: outcome.refused,
              }),
            ),
      reply: (refusal) =>
        toFetcher
          ? answer({ ok: false, status: refusal.status, message: refusal.message }, refusal.status)
          : redirectWithFlash(
              atPipeline(dashboardUrl({ step: "upload" })),
              uploadRefusedToast(refusal),
            ),
    });
  }

  const form = await readFormData(request);
  const back = String(form.get("back") ?? "");
  const returnTo = back.startsWith("/dashboard") ? safeRedirect(back, "/dashboard") : "/dashboard";
  const refused = (intent: string) => (refusal: Refusal) =>
    redirectWithFlash(atPipeline(returnTo), refusedToast(intent, refusal));
  const deleted = (to: string) =>
    redirectWithFlash(atPipeline(to), { kind: "success", title: "Image Deleted" });
  // The page waits for a style asked for by its URL (useStyleInProgress with JavaScript, a <noscript> refresh without).
  const waitForStyle = (style: { imageId: string; id: string }) =>
    redirect(atPipeline(dashboardUrl({ image: style.imageId, step: "style", pending: style.id })));

  return screenAction(args, {
    user,
    form,
    intents: {
      "give-consent": intent({
        procedure: giveFaceConsent,
        rawInput: () => ({ faceProcessing: true }),
        onSuccess: () =>
          redirectWithFlash(atPipeline(returnTo), {
            kind: "success",
            title: "Thank you",
            description:
              "You can now generate styles. You can withdraw your consent in Settings, Privacy.",
          }),
        reply: refused("give-consent"),
      }),
      stylize: intent({
        procedure: stylizeImage,
        fields: stylizeSchema,
        onSuccess: ({ result }) => waitForStyle(result),
        reply: refused("stylize"),
      }),
      // All four styles: the page waits for the last one asked for; each card shows its own progress.
      "stylize-all": intent({
        procedure: stylizeAllStyles,
        fields: idSchema,
        onSuccess: ({ result }) => waitForStyle(result.at(-1)!),
        reply: refused("stylize-all"),
      }),
      // Re-roll: a new style of the same photo and style with a new seed; the earlier one stays.
      reroll: intent({
        procedure: rerollStyle,
        fields: idSchema,
        onSuccess: ({ result }) => waitForStyle(result),
        reply: refused("reroll"),
      }),
      optimize: intent({
        procedure: optimizeImage,
        fields: optimizeSchema,
        onSuccess: ({ result: stylized }) =>
          redirectWithFlash(atPipeline(dashboardUrl({ styled: stylized.id, step: "market" })), {
            kind: "success",
            title: "Image optimized successfully",
          }),
        reply: refused("optimize"),
      }),
      "delete-stylized": intent({
        procedure: deleteStylizedImage,
        fields: idSchema,
        onSuccess: ({ result }) => deleted(withoutHeld(returnTo, result.id)),
        reply: refused("delete-stylized"),
      }),
      "delete-image": intent({
        procedure: deleteImage,
        fields: idSchema,
        onSuccess: () => deleted("/dashboard"),
        reply: refused("delete-image"),
      }),
    },
    unknownIntent: () =>
      redirectWithFlash(atPipeline(returnTo), {
        kind: "error",
        title: "Error",
        description: "Unknown action.",
      }),
  });
}
