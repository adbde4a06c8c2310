import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import type { AnyProcedure, CallerFor } from "~/infra/procedure.server";
import { invoke } from "~/infra/procedure.server";
import { HttpError } from "~/infra/errors.server";
import type { FlashMessage } from "~/lib/flash";
import { DAMAGED_IMAGE, FILE_TOO_LARGE, INVALID_FILE_TYPE } from "~/lib/limits";
import { idSchema, optimizeSchema, stylizeSchema } from "~/features/studio/schemas";
import type { StylizedImageJson } from "~/features/studio/types";
import { atPipeline, dashboardUrl } from "~/features/studio/dashboard-url";
import { safeRedirect } from "~/lib/safe-redirect";
import {
  loadDashboardProcedure,
  deleteImage,
  stylizeImage,
  uploadImage,
  deleteStylizedImage,
  optimizeImage,
} from "~/features/studio/procedures.server";
import { creatorPayouts } from "~/features/payouts/procedures.server";
import { giveFaceConsent } from "~/features/privacy/procedures/face-consent.server";
import { getWebUser } from "~/web/auth.server";
import { redirectWithFlash } from "~/web/flash.server";
import { readFormData } from "~/web/http.server";
import { callContext } from "~/web/request-context.server";
import { isCrossSiteMutation } from "~/web/same-origin.server";

/**
 * The dashboard screen's loader and action (/dashboard, and / when signed in):
 * who is calling, the form posts, flash messages and redirects; the data and
 * every operation come from the studio's procedures.
 */

/** The dashboard's loader: a signed-out visitor is told so (the page then sends them to sign in). */
export async function dashboardLoader(args: LoaderFunctionArgs) {
  const user = await getWebUser(args.request);
  if (!user) return json({ signedIn: false as const }, { status: 401 });
  return signedInDashboard(args, user);
}

/** The dashboard's data for a signed-in creator (also the signed-in Home). */
export async function signedInDashboard(args: LoaderFunctionArgs, user: CallerFor<"user">) {
  const query = Object.fromEntries(new URL(args.request.url).searchParams);
  try {
    const ctx = callContext(args.request, args.context);
    const result = await invoke(loadDashboardProcedure, user, query, ctx);
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
