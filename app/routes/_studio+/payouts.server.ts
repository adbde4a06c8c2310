import { json } from "@remix-run/node";
import type { FlashMessage } from "~/lib/flash";
import type { PayoutAccountView } from "~/features/payouts/types";

/**
 * What the Payouts screens share: a failed call to the payout provider is a
 * message on the page, and the notice shown on coming back from onboarding.
 */

export const PROVIDER_UNREACHABLE =
  "The payout provider could not be reached. Please try again in a moment.";

/** What a payout screen says when the provider failed in a way no procedure refused (the error is logged). */
export function providerUnreachable(
  error: unknown,
  what: string,
): { message: string; status: number } {
  console.warn(`${what} failed:`, error instanceof Error ? error.message : error);
  return { message: PROVIDER_UNREACHABLE, status: 502 };
}

/** A page's answer to a failed form post: the page again, with the message. */
export function failedPost({ message, status }: { message: string; status: number }) {
  return json({ error: message }, { status });
}

/** The notice on /payouts after coming back from onboarding. */
export function returnNotice(account: PayoutAccountView): FlashMessage {
  switch (account.status) {
    case "active":
      return {
        kind: "success",
        title: "Payout account updated",
        description: "Your payout account is active. Owed shares are on their way to it.",
      };
    case "pending":
      return {
        kind: "info",
        title: "Payout account updated",
        description: "Setup is not finished yet. Continue setup to start receiving payouts.",
      };
    case "restricted":
      return {
        kind: "error",
        title: "Payout account needs attention",
        description:
          "More information is needed before payouts can be sent. Continue setup to give it.",
      };
    case "not_connected":
      return {
        kind: "info",
        title: "Payouts are not set up",
        description: "Set up payouts to receive your share of each sale.",
      };
  }
}
