import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { Refusal } from "~/web/screen-action.server";
import { intent, loadProcedure, screenAction, screenCall } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { redirectWithFlash } from "~/web/flash.server";
import {
  faceConsentScreen,
  giveFaceConsent,
  withdrawFaceConsentProcedure,
} from "~/features/privacy/procedures/face-consent.server";
import { removeVerifiedFace, verifyFace } from "~/features/privacy/procedures/verified-face.server";
import { PrivacySettings } from "~/features/privacy/components/privacy-settings";

const HERE = "/settings/privacy";

/** Settings, Privacy: the consent to face processing, with Give or Withdraw. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const screen = await loadProcedure(faceConsentScreen, args, {}, user);
  return json(screen, { headers: { "Cache-Control": "private, no-store" } });
}

/** Give ("give-consent") or withdraw ("withdraw-consent"), as plain form posts; post/redirect/get with a flash. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  // The selfie streams: the body is read by the procedure itself, never buffered here.
  if ((args.request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/")) {
    return screenCall(args, {
      procedure: verifyFace,
      input: {},
      user,
      onSuccess: () =>
        redirectWithFlash(HERE, {
          kind: "success",
          title: "Face verified",
          description: "Your uploads are now compared with your face.",
        }),
      reply: (refusal) =>
        redirectWithFlash(HERE, {
          kind: "error",
          title: "Face not verified",
          description: refusal.message,
        }),
    });
  }
  // Neither button can be refused but by an error the page's ErrorBoundary shows.
  const unexpected = (refusal: Refusal): never => {
    throw refusal.error ?? json({ message: refusal.message }, { status: refusal.status });
  };
  return screenAction(args, {
    user,
    unknownIntent: () =>
      redirectWithFlash(HERE, { kind: "error", title: "Error", description: "Unknown action." }),
    intents: {
      "give-consent": intent({
        procedure: giveFaceConsent,
        rawInput: () => ({ faceProcessing: true }),
        reply: unexpected,
        onSuccess: () =>
          redirectWithFlash(HERE, {
            kind: "success",
            title: "Consent given",
            description: "You can now generate styles.",
          }),
      }),
      "remove-face": intent({
        procedure: removeVerifiedFace,
        rawInput: () => ({}),
        reply: unexpected,
        onSuccess: () =>
          redirectWithFlash(HERE, {
            kind: "success",
            title: "Verified face deleted",
            description: "Your face descriptor is deleted; uploads are no longer compared.",
          }),
      }),
      "withdraw-consent": intent({
        procedure: withdrawFaceConsentProcedure,
        rawInput: () => ({}),
        reply: unexpected,
        onSuccess: () =>
          redirectWithFlash(HERE, {
            kind: "success",
            title: "Consent withdrawn",
            description:
              "No face of yours is processed any more; styles that were waiting are cancelled.",
          }),
      }),
    },
  });
}

export default function SettingsPrivacy() {
  return <PrivacySettings screen={useLoaderData<typeof loader>()} />;
}
