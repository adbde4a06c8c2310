import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/ui/page-header";
import { ListingPreview } from "~/features/studio/optimize/components/listing-preview";
import { ListForSaleForm } from "~/features/publishing/publications/components/list-for-sale";
import { PublicationList } from "~/features/publishing/publications/components/publication-status";
import { PRODUCT_NAME } from "~/lib/product";
import { COPY, postingCompleteText } from "~/features/publishing/types";
import {
  imagePublications,
  postToMarketplaces,
  publishFormDefaults,
} from "~/features/publishing/publications/launch.procedures.server";
import { redirectWithFlash } from "~/web/flash.server";
import { loadProcedure, submitForm } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { readFormData } from "~/web/http.server";

export const meta: MetaFunction = () => [{ title: `List for sale | ${PRODUCT_NAME}` }];

/**
 * /studio/list?image=<stylized image id>: the list-for-sale dialog as a page
 * (without JavaScript), and after posting (&posted=...) where the image stands
 * on those platforms.
 */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const url = new URL(args.request.url);
  const imageId = url.searchParams.get("image");
  if (!imageId) throw redirect("/dashboard");
  const posted = (url.searchParams.get("posted") ?? "").split(",").filter(Boolean);
  const defaults = await loadProcedure(publishFormDefaults, args, { imageId }, user);
  const state = posted.length
    ? await loadProcedure(imagePublications, args, { imageId }, user)
    : null;
  return json({
    defaults,
    results: state ? state.platforms.filter((platform) => posted.includes(platform.id)) : null,
  });
}

/** The dialog posts here: JSON for the dialog (JavaScript), else post/redirect/get with 'Marketplace Posting Complete'. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const formData = await readFormData(args.request);
  const outcome = await submitForm(postToMarketplaces, args, { formData, user });
  if (!outcome.ok) return outcome.response;
  const { results } = outcome.result;
  if (formData.get("_js") === "1") return json({ ok: true as const, results });
  const imageId = String(formData.get("imageId"));
  const successes = results.filter((result) => result.success).length;
  return redirectWithFlash(
    `/studio/list?image=${encodeURIComponent(imageId)}&posted=${results.map((r) => r.platform).join(",")}`,
    {
      kind: "success",
      ...COPY.postingComplete,
      description: postingCompleteText(successes, results.length),
    },
  );
}

export default function ListForSalePage() {
  const { defaults, results } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <div className="mx-auto max-w-xl px-4 py-8">
      <PageHeader
        title="List for Sale"
        back={{ to: "/dashboard", label: "Back to Dashboard", look: "btn-secondary" }}
      />
      <div className="card mt-6 p-6">
        {results ? (
          <div className="space-y-4" data-testid="list-for-sale-results">
            <p className="text-sm text-slate-700">
              {postingCompleteText(
                results.filter((r) => r.status !== "failed" && r.status !== "needs_auth").length,
                results.length,
              )}
            </p>
            <PublicationList publications={results} />
            <Link
              to={`/studio/list?image=${encodeURIComponent(defaults.imageId)}`}
              className="btn-secondary"
            >
              List again
            </Link>
          </div>
        ) : !defaults.ready ? (
          <p className="text-slate-700">
            This image is not ready yet: list it once its style has been generated.
          </p>
        ) : (
          <>
            <ListingPreview src={defaults.previewUrl} style={defaults.style} />
            <ListForSaleForm
              image={{
                id: defaults.imageId,
                style: defaults.style,
                price: defaults.price,
                extendedPrice: defaults.extendedPrice,
                exclusivePrice: defaults.exclusivePrice,
              }}
              platforms={defaults.platforms}
              pageResult={actionData}
            />
          </>
        )}
      </div>
    </div>
  );
}
