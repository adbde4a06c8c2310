import type { ActionFunctionArgs } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import type { UserRow } from "#db/schema";
import { signIn } from "~/features/accounts/sessions/procedures.server";
import type { FormOutcome } from "~/web/screen-action.server";
import { submitForm } from "~/web/screen-action.server";

/**
 * remix-auth with the form strategy. remix-auth 4 leaves sessions to the app:
 * the strategy only answers who the credentials belong to (or the form's
 * errors), and the route starts a database-backed session.
 */
export function webAuthenticator(args: ActionFunctionArgs) {
  const authenticator = new Authenticator<FormOutcome<UserRow>>();
  authenticator.use(
    new FormStrategy(({ form }) => submitForm(signIn, args, { formData: form, user: null })),
    "form",
  );
  return authenticator;
}
