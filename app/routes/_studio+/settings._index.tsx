import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ProfileSettings } from "~/features/accounts/components/profile-settings";
import { profileFormSchema } from "~/features/accounts/profile-schemas";
import { account, EMAIL_CHANGE_REQUESTED, requestEmailChange, updateAccount, uploadAvatar } from "~/features/accounts/procedures/profile.server";
import { HttpError } from "~/infra/errors.server";
import { invoke } from "~/infra/procedure.server";
import { FILE_TOO_LARGE, INVALID_FILE_TYPE } from "~/lib/limits";
import type { FlashMessage } from "~/lib/flash";
import { redirectWithFlash } from "~/web/flash.server";
import { loadProcedure, submitForm, submitFormAs } from "~/web/remix-adapter.server";
import { callContext } from "~/web/request-context.server";
import { isCrossSiteMutation } from "~/web/same-origin.server";
import { requireWebUser } from "~/web/screen-guards.server";
import { readFormData } from "~/web/http.server";

/** /settings (the Profile tab): the signed-in person's photo, names, handle, bio and email. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireWebUser(args.request);
  return json({ account: await loadProcedure(account, args, {}, user) }, { headers: { "Cache-Control": "private, no-store" } });
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
  const user = await requireWebUser(request);
  if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    if (isCrossSiteMutation(request)) throw json({ message: "Cross-site request refused" }, { status: 403 });
    try {
      await invoke(uploadAvatar, user, {}, callContext(request, args.context));
      return redirectWithFlash("/settings", { kind: "success", title: "Photo updated" });
    } catch (error) {
      if (!(error instanceof HttpError)) throw error;
      return redirectWithFlash("/settings", PHOTO_FAILURES[error.status] ?? { kind: "error", title: "Upload Failed", description: error.message });
    }
  }
  const formData = await readFormData(request);
  switch (formData.get("intent")) {
    case "profile": {
      const outcome = await submitFormAs(updateAccount, args, { schema: profileFormSchema, toInput: (value) => value, formData, user });
      if (!outcome.ok) return outcome.response;
      return redirectWithFlash("/settings", { kind: "success", title: "Profile saved" });
    }
    case "email": {
      const outcome = await submitForm(requestEmailChange, args, { formData, user });
      if (!outcome.ok) return outcome.response;
      return redirectWithFlash("/settings", { kind: "success", title: "Check your new inbox", description: EMAIL_CHANGE_REQUESTED });
    }
    default:
      return redirectWithFlash("/settings", { kind: "error", title: "Error", description: "Unknown action." });
  }
}

export default function ProfileTab() {
  const { account: current } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <ProfileSettings account={current} lastResult={lastResult} />;
}
