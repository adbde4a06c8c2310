import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import {
  accountExportScreen,
  requestAccountExport,
} from "~/features/accounts/exports/procedures.server";
import { DataExportPanel } from "~/features/accounts/exports/components/data-export-panel";
import { redirectWithFlash } from "~/web/flash.server";
import { intent, loadProcedure, screenAction } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";

export const meta: MetaFunction = () => [{ title: `Your data | Settings | ${PRODUCT_NAME}` }];

const HERE = "/settings/export";

/** /settings/export (Your data): the latest export of the creator's data and the button that asks for one. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const screen = await loadProcedure(accountExportScreen, args, {}, user);
  return json(screen, { headers: { "Cache-Control": "private, no-store" } });
}

/** intent=export: asks for an export (post/redirect/get; the answer is a flash on this tab). */
export async function action(args: ActionFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  return screenAction(args, {
    user,
    unknownIntent: () => redirectWithFlash(HERE, { kind: "error", title: "Unknown action" }),
    intents: {
      export: intent({
        procedure: requestAccountExport,
        rawInput: () => ({}),
        reply: (refusal) => {
          if (refusal.status >= 500) throw refusal.error;
          return redirectWithFlash(HERE, {
            kind: "error",
            title: "No new export yet",
            description: refusal.message,
          });
        },
        onSuccess: () =>
          redirectWithFlash(HERE, {
            kind: "success",
            title: "Export on its way",
            description:
              "We are preparing your data. We will email you a link when it is ready; it also shows here.",
          }),
      }),
    },
  });
}

export default function SettingsExport() {
  const { latest, nextAllowedAt } = useLoaderData<typeof loader>();
  return <DataExportPanel latest={latest} nextAllowedAt={nextAllowedAt} />;
}
