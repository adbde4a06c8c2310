import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/ui/page-header";
import { ListingPreview } from "~/features/studio/optimize/components/listing-preview";
import { LaunchForm } from "~/features/publishing/publications/components/launch-form";
import { LaunchResult } from "~/features/publishing/publications/components/launch-result";
import { PRODUCT_NAME } from "~/lib/product";
import { COPY } from "~/features/publishing/types";
import {
  launchMarketing,
  launchResult,
  publishFormDefaults,
} from "~/features/publishing/publications/launch.procedures.server";
import { redirectWithFlash } from "~/web/flash.server";
import { loadProcedure, submitForm } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { readFormData } from "~/web/http.server";

export const meta: MetaFunction = () => [{ title: `Launch marketing | ${PRODUCT_NAME}` }];

/**
 * /studio/launch?image=<stylized image id>: the launch form as a page (the
 * dashboard embeds the same form), and after a launch without JavaScript
 * (&platforms=...) its result view.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const url = new URL(args.request.url);
  const imageId = url.searchParams.get("image");
  if (!imageId) throw redirect("/dashboard");
  const launched = url.searchParams.get("platforms");
  if (launched) {
    return json({
      mode: "result" as const,
      result: await loadProcedure(launchResult, args, { imageId, platforms: launched }, user),
    });
  }
  return json({
    mode: "form" as const,
    defaults: await loadProcedure(publishFormDefaults, args, { imageId }, user),
  });
}

/** The launch form posts here: JSON for the in-place form (JavaScript), else post/redirect/get to the result. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const formData = await readFormData(args.request);
  const outcome = await submitForm(launchMarketing, args, { formData, user });
  if (!outcome.ok) return outcome.response;
  if (formData.get("_js") === "1") return json({ ok: true as const, result: outcome.result });
  const platforms = outcome.result.platforms.map((platform) => platform.id).join(",");
  return redirectWithFlash(
    `/studio/launch?image=${encodeURIComponent(outcome.result.imageId)}&platforms=${platforms}`,
    {
      kind: "success",
      ...COPY.launched,
    },
  );
}

export default function LaunchPage() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <PageHeader
        title="Launch marketing"
        subtitle="Publish your image to the marketplace and the platforms you connected."
        back={{ to: "/dashboard", label: "Back to Dashboard", look: "btn-secondary" }}
      />
      <div className="card mt-6 p-6">
        {data.mode === "result" ? (
          <LaunchResult result={data.result} />
        ) : !data.defaults.ready ? (
          <p className="text-slate-700">
            This image is not ready yet: launch it once its style has been generated.
          </p>
        ) : (
          <>
            <ListingPreview src={data.defaults.previewUrl} style={data.defaults.style} />
            <LaunchForm
              image={{ id: data.defaults.imageId, style: data.defaults.style }}
              defaults={{ ...data.defaults, price: data.defaults.price }}
              platforms={data.defaults.platforms}
              pageResult={actionData}
            />
          </>
        )}
      </div>
    </div>
  );
}
