import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ProfileSettings } from "~/features/accounts/profile/components/profile-settings";
import { profileFormSchema } from "~/features/accounts/profile/profile-schemas";
import {
  account,
  EMAIL_CHANGE_REQUESTED,
  requestEmailChange,
  updateAccount,
  uploadAvatar,
} from "~/features/accounts/profile/procedures.server";
import { FILE_TOO_LARGE, INVALID_FILE_TYPE } from "~/lib/limits";
import type { FlashMessage } from "~/lib/flash";
import { redirectWithFlash } from "~/web/flash.server";
import {
  flashRefusal,
  intent,
  loadProcedure,
  screenAction,
  screenCall,
} from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";

/** /settings (the Profile tab): the signed-in person's photo, names, handle, bio and email. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  return json(
    { account: await loadProcedure(account, args, {}, user) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

const PHOTO_FAILURES: Record<number, FlashMessage> = {
  413: { kind: "error", ...FILE_TOO_LARGE },
  415: { kind: "error", ...INVALID_FILE_TYPE },
};

/**
 * The tab's form posts, each answered with a redirect and a flash message
 * (or, for a refused form, its fields' messages): the photo (a multipart
 * body, streamed by the procedure, never buffered here), the profile, and an
 * email change.
 */
export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const user = await requireScreenUser(request, { access: "user" });
  if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    return screenCall(args, {
      procedure: uploadAvatar,
      input: {},
      user,
      onSuccess: () => redirectWithFlash("/settings", { kind: "success", title: "Photo updated" }),
      reply: flashRefusal(
        "/settings",
        (refusal) =>
          PHOTO_FAILURES[refusal.status] ?? {
            kind: "error",
            title: "Upload Failed",
            description: refusal.message,
          },
      ),
    });
  }
  return screenAction(args, {
    user,
    unknownIntent: () =>
      redirectWithFlash("/settings", {
        kind: "error",
        title: "Error",
        description: "Unknown action.",
      }),
    intents: {
      profile: intent({
        procedure: updateAccount,
        fields: profileFormSchema,
        reply: "form",
        onSuccess: () =>
          redirectWithFlash("/settings", { kind: "success", title: "Profile saved" }),
      }),
      email: intent({
        procedure: requestEmailChange,
        reply: "form",
        onSuccess: () =>
          redirectWithFlash("/settings", {
            kind: "success",
            title: "Check your new inbox",
            description: EMAIL_CHANGE_REQUESTED,
          }),
      }),
    },
  });
}

export default function ProfileTab() {
  const { account: current } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <ProfileSettings account={current} lastResult={lastResult} />;
}
