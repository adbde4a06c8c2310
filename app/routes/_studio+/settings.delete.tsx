import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { PRODUCT_NAME } from "~/lib/product";
import { eraseMyAccount } from "~/features/erasure/procedures/erasure.server";
import { eraseAccountFormSchema } from "~/features/erasure/schemas";
import { DeleteAccountPanel } from "~/features/erasure/components/delete-account-panel";
import { submitFormAs } from "~/web/screen-action.server";
import { requireScreenUser } from "~/web/screen-guards.server";
import { redirectWithFlash } from "~/web/flash.server";
import { endWebSession } from "~/web/web-session.server";

export const meta: MetaFunction = () => [{ title: `Delete account | ${PRODUCT_NAME}` }];

/** /settings/delete: what erasing the account does; ?confirm=1 opens the confirmation (password and "I understand"). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireScreenUser(request, { access: "user" });
  const confirmOpen = new URL(request.url).searchParams.get("confirm") === "1";
  return json(
    { email: user.email, confirmOpen },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

/** Erases the account (eraseMyAccount): the session ends with it, and the browser lands on the home page with a notice. */
export async function action(args: ActionFunctionArgs) {
  await requireScreenUser(args.request, { access: "user" });
  const outcome = await submitFormAs(eraseMyAccount, args, {
    schema: eraseAccountFormSchema,
    toInput: ({ password }) => ({ password }),
  });
  if (!outcome.ok) return outcome.response;
  const clear = await endWebSession(args.request);
  return redirectWithFlash(
    "/",
    {
      kind: "success",
      title: "Account deleted",
      description: "Your account is closed; your files and personal data are being deleted.",
    },
    { "Set-Cookie": clear },
  );
}

export default function SettingsDelete() {
  const { email, confirmOpen } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return (
    <DeleteAccountPanel
      email={email}
      confirmOpen={confirmOpen || Boolean(lastResult)}
      lastResult={lastResult}
    />
  );
}
