import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { loadProcedure } from "~/web/remix-adapter.server";
import { requireWebUser } from "~/web/screen-guards.server";
import { redirectWithFlash } from "~/web/flash.server";
import { readFormData } from "~/web/http.server";
import { callContext } from "~/web/request-context.server";
import { isCrossSiteMutation } from "~/web/same-origin.server";
import { invoke } from "~/infra/procedure.server";
import { faceConsentScreen, giveFaceConsent, withdrawFaceConsentProcedure } from "~/features/privacy/procedures/face-consent.server";
import { PrivacySettings } from "~/features/privacy/components/privacy-settings";

const HERE = "/settings/privacy";

/** Settings, Privacy: the consent to face processing, with Give or Withdraw. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireWebUser(args.request);
  const screen = await loadProcedure(faceConsentScreen, args, {}, user);
  return json(screen, { headers: { "Cache-Control": "private, no-store" } });
}

/** Give ("give-consent") or withdraw ("withdraw-consent"), as plain form posts; post/redirect/get with a flash. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireWebUser(args.request);
  if (isCrossSiteMutation(args.request)) throw json({ message: "Cross-site request refused" }, { status: 403 });
  const formData = await readFormData(args.request);
  const ctx = callContext(args.request, args.context);
  switch (formData.get("intent")) {
    case "give-consent":
      await invoke(giveFaceConsent, user, { faceProcessing: true }, ctx);
      return redirectWithFlash(HERE, { kind: "success", title: "Consent given", description: "You can now generate styles." });
    case "withdraw-consent":
      await invoke(withdrawFaceConsentProcedure, user, {}, ctx);
      return redirectWithFlash(HERE, {
        kind: "success",
        title: "Consent withdrawn",
        description: "No face of yours is processed any more; styles that were waiting are cancelled.",
      });
    default:
      return redirectWithFlash(HERE, { kind: "error", title: "Error", description: "Unknown action." });
  }
}

export default function SettingsPrivacy() {
  return <PrivacySettings screen={useLoaderData<typeof loader>()} />;
}
