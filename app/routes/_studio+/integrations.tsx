import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { PRODUCT_NAME } from "~/lib/product";
import {
  createIntegration,
  deleteIntegration,
  integrationsScreen,
} from "~/features/publishing/integrations/procedures.server";
import { intent, loadProcedure, screenAction } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { redirectWithFlash } from "~/web/flash.server";
import { findPlatform } from "~/features/publishing/platforms";
import { COPY } from "~/features/publishing/types";
import { IntegrationsScreen } from "~/features/publishing/integrations/components/integrations-screen";
import { LineIcon } from "~/ui/line-icon";

export const meta: MetaFunction = () => [{ title: `Integrations | ${PRODUCT_NAME}` }];

/** /integrations: public route whose content depends on being signed in. */
export async function loader(args: LoaderFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "optional" });
  if (!user) return json({ signedIn: false as const });
  const url = new URL(args.request.url);
  const screen = await loadProcedure(
    integrationsScreen,
    args,
    {
      connect: url.searchParams.get("connect") ?? undefined,
      shop: url.searchParams.get("shop") ?? undefined,
    },
    user,
  );
  return json({ signedIn: true as const, screen });
}

/** Signed in: the manual setup form ("manual") and Disconnect ("disconnect"); post/redirect/get. A refused form never gets its API key back. */
export async function action(args: ActionFunctionArgs) {
  const user = await requireScreenUser(args.request, { access: "user" });
  const manual = intent({
    procedure: createIntegration,
    reply: "form",
    onSuccess: ({ result }) =>
      redirectWithFlash(`/integrations#${result.platform}`, {
        kind: "success",
        ...COPY.integrationCreated,
      }),
  });
  return screenAction(args, {
    user,
    unknownIntent: manual,
    intents: {
      manual,
      disconnect: intent({
        procedure: deleteIntegration,
        reply: "form",
        onSuccess: ({ form }) => {
          const name = findPlatform(String(form.get("platform") ?? ""))?.name ?? "The platform";
          return redirectWithFlash("/integrations", {
            kind: "success",
            title: "Disconnected",
            description: `${name} is disconnected.`,
          });
        },
      }),
    },
  });
}

export default function Integrations() {
  const data = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>() as SubmissionResult<string[]> | undefined;
  return data.signedIn ? (
    <IntegrationsScreen data={data.screen} lastResult={actionData} />
  ) : (
    <AuthenticationRequired />
  );
}

function AuthenticationRequired() {
  return (
    <section
      className="mx-auto flex max-w-xl flex-col items-center px-4 py-20 text-center"
      data-testid="integrations-signed-out"
    >
      <span className="inline-flex h-14 w-14 items-center justify-center rounded-full bg-brand-100 text-brand-700">
        <LineIcon className="h-7 w-7">
          <rect x="4" y="9" width="12" height="8" rx="1.5" />
          <path d="M7 9V6.5a3 3 0 016 0V9" />
        </LineIcon>
      </span>
      <h1 className="mt-5 text-3xl font-bold text-slate-900">Authentication Required</h1>
      <div
        role="status"
        className="mt-4 rounded-xl border border-slate-200 bg-white px-5 py-4 text-left shadow-sm"
      >
        <p className="font-semibold text-slate-900">Please log in</p>
        <p className="mt-1 text-sm text-slate-600">
          You need to be logged in to access integrations.
        </p>
      </div>
      <Link to="/auth?redirectTo=%2Fintegrations" className="btn-primary mt-8 px-6">
        Sign In
      </Link>
    </section>
  );
}
