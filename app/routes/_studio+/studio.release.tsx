import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/ui/page-header";
import { ListingPreview } from "~/features/studio/optimize/components/listing-preview";
import {
  ModelReleasePanel,
  releaseAction,
} from "~/features/publishing/releases/components/model-release-form";
import {
  modelReleaseState,
  signModelReleaseProcedure,
  uploadModelRelease,
} from "~/features/publishing/releases/procedures.server";
import { PRODUCT_NAME } from "~/lib/product";
import { redirectWithFlash } from "~/web/flash.server";
import { flashRefusal, loadProcedure, screenCall, submitForm } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";

export const meta: MetaFunction = () => [{ title: `Model release | ${PRODUCT_NAME}` }];

/**
 * /studio/release?image=<stylized image id>: the image's model release (for
 * Adobe Stock): the one on file with its PDF, a form to sign one for
 * yourself, and one to upload the signed release of the person shown.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const imageId = new URL(args.request.url).searchParams.get("image");
  if (!imageId) throw redirect("/dashboard");
  const state = await loadProcedure(modelReleaseState, args, { id: imageId }, user);
  return json({ state }, { headers: { "Cache-Control": "private, no-store" } });
}

/**
 * The sign form (its fields' messages when refused) and the upload (a
 * multipart body, streamed by the procedure); each ends in a redirect back
 * here with a flash message.
 */
export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const user = await requireScreenUser(request, { access: "user" });
  const imageId = new URL(request.url).searchParams.get("image") ?? "";
  const back = releaseAction(imageId);
  if ((request.headers.get("Content-Type") ?? "").toLowerCase().startsWith("multipart/form-data")) {
    return screenCall(args, {
      procedure: uploadModelRelease,
      input: { id: imageId },
      user,
      onSuccess: () =>
        redirectWithFlash(back, {
          kind: "success",
          title: "Model release saved",
          description: "The signed release is kept with this image.",
        }),
      reply: flashRefusal(back, (refusal) => ({
        kind: "error",
        title: "Release not saved",
        description: refusal.message,
      })),
    });
  }
  const outcome = await submitForm(signModelReleaseProcedure, args, { user });
  if (!outcome.ok) return outcome.response;
  return redirectWithFlash(back, {
    kind: "success",
    title: "Model release signed",
    description: "The PDF is kept with this image.",
  });
}

export default function ModelReleasePage() {
  const { state } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-xl px-4 py-8">
      <PageHeader
        title="Model release"
        actions={
          <Link
            to={`/studio/list?image=${encodeURIComponent(state.imageId)}`}
            className="btn-secondary"
          >
            Back to the listing
          </Link>
        }
      />
      <div className="card mt-6 space-y-6 p-6">
        <ListingPreview src={state.previewUrl} style={state.style} />
        <ModelReleasePanel state={state} lastResult={lastResult} />
      </div>
    </div>
  );
}
