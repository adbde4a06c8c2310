import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import type { Refusal } from "~/web/screen-action.server";
import { intent, loadProcedure, screenAction } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { redirectWithFlash } from "~/web/flash.server";
import {
  faceConsentScreen,
  giveFaceConsent,
  withdrawFaceConsentProcedure,
} from "~/features/privacy/procedures/face-consent.server";
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
