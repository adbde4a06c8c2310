import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { HttpError } from "~/infra/errors.server";
import { invoke } from "~/infra/procedure.server";
import { PRODUCT_NAME } from "~/lib/product";
import { accountExportScreen, requestAccountExport } from "~/features/accounts/procedures/export.server";
import { DataExportPanel } from "~/features/accounts/components/data-export-panel";
import { redirectWithFlash } from "~/web/flash.server";
import { readFormData } from "~/web/http.server";
import { loadProcedure } from "~/web/remix-adapter.server";
import { callContext } from "~/web/request-context.server";
import { isCrossSiteMutation } from "~/web/same-origin.server";
import { requireWebUser } from "~/web/screen-guards.server";

export const meta: MetaFunction = () => [{ title: `Your data | Settings | ${PRODUCT_NAME}` }];

const HERE = "/settings/export";

/** /settings/export (Your data): the latest export of the creator's data and the button that asks for one. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireWebUser(args.request);
  const screen = await loadProcedure(accountExportScreen, args, {}, user);
  return json(screen, { headers: { "Cache-Control": "private, no-store" } });
}

/** intent=export: asks for an export (post/redirect/get; the answer is a flash on this tab). */
export async function action(args: ActionFunctionArgs) {
  const { request } = args;
  const user = await requireWebUser(request);
  if (isCrossSiteMutation(request)) return json({ error: "Cross-site request refused" }, { status: 403 });
  const intent = String((await readFormData(request)).get("intent") ?? "");
  if (intent !== "export") return redirectWithFlash(HERE, { kind: "error", title: "Unknown action" });
  try {
    await invoke(requestAccountExport, user, {}, callContext(request, args.context));
  } catch (error) {
    if (error instanceof HttpError && error.status < 500) {
      return redirectWithFlash(HERE, { kind: "error", title: "No new export yet", description: error.message });
    }
    throw error;
  }
  return redirectWithFlash(HERE, {
    kind: "success",
    title: "Export on its way",
    description: "We are preparing your data. We will email you a link when it is ready; it also shows here.",
  });
}

export default function SettingsExport() {
  const { latest, nextAllowedAt } = useLoaderData<typeof loader>();
  return <DataExportPanel latest={latest} nextAllowedAt={nextAllowedAt} />;
}
