import { json, redirect } from "@remix-run/node";
import { HttpError } from "~/infra/errors.server";
import type { CallerFor } from "~/infra/procedure.server";
import type { FlashMessage } from "~/lib/flash";
import type { PayoutAccountView } from "~/features/payouts/types";
import { getWebUser } from "~/web/auth.server";

/**
 * What the Payouts screens share: only signed-in creators see them (a
 * signed-out visitor signs in and comes back), a failed call to the payout
 * provider is a message on the page, and the notice shown on coming back from
 * onboarding.
 */

/** The signed-in creator; a signed-out visitor is sent to sign in and back to this page afterwards. */
export async function requireCreator(request: Request, back?: string): Promise<CallerFor<"user">> {
  const user = await getWebUser(request);
  if (!user) {
    const url = new URL(request.url);
    throw redirect(`/auth?redirectTo=${encodeURIComponent(back ?? url.pathname + url.search)}`);
  }
  return user;
}

export const PROVIDER_UNREACHABLE = "The payout provider could not be reached. Please try again in a moment.";

/** An error of a payout call as a message and a status: a procedure's own message, or a general one for anything else (logged). */
export function payoutFailure(error: unknown, what: string): { message: string; status: number } {
  if (error instanceof HttpError) return { message: error.message, status: error.status };
  console.warn(`${what} failed:`, error instanceof Error ? error.message : error);
  return { message: PROVIDER_UNREACHABLE, status: 502 };
}

/** A page's answer to a failed form post: the page again, with the message. */
export function failedPost(error: unknown, what: string) {
  const { message, status } = payoutFailure(error, what);
  return json({ error: message }, { status });
}

/** The notice on /payouts after coming back from onboarding. */
export function returnNotice(account: PayoutAccountView): FlashMessage {
  switch (account.status) {
    case "active":
      return { kind: "success", title: "Payout account updated", description: "Your payout account is active. Owed shares are on their way to it." };
    case "pending":
      return { kind: "info", title: "Payout account updated", description: "Setup is not finished yet. Continue setup to start receiving payouts." };
    case "restricted":
      return { kind: "error", title: "Payout account needs attention", description: "More information is needed before payouts can be sent. Continue setup to give it." };
    case "not_connected":
      return { kind: "info", title: "Payouts are not set up", description: "Set up payouts to receive your share of each sale." };
  }
}
