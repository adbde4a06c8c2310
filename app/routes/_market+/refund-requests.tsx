import type { ActionFunctionArgs } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { requestLibraryRefund } from "~/features/market/library/procedures.server";
import { requestRefund } from "~/features/market/orders/refund-requests.procedures.server";
import { redirectWithFlash } from "~/web/flash.server";
import { readFormData } from "~/web/http.server";
import { flashRefusal, intent, screenAction } from "~/web/screen-action.server";

/**
 * /refund-requests: where the buyer's refund forms post (plain forms, no
 * JavaScript needed). `intent=library` from the library (its link's token and
 * the order), `intent=receipt` from the receipt after payment (the checkout
 * session). Either way the buyer lands back on the page they asked from, with
 * a message saying what happened; the page then shows the request's state.
 */
export function loader() {
  return redirect("/library");
}

const ASKED = {
  kind: "success" as const,
  title: "Refund requested",
  description: "The admin reads your reason and tells you by email.",
};

const refused = (description: string) => ({
  kind: "error" as const,
  title: "No refund was requested",
  description,
});

export async function action(args: ActionFunctionArgs) {
  const form = await readFormData(args.request);
  const field = (name: string) => String(form.get(name) ?? "").slice(0, 1000);
  const library = `/library?token=${encodeURIComponent(field("token"))}#order-${encodeURIComponent(field("orderId"))}`;
  const receipt = `/marketplace?session_id=${encodeURIComponent(field("sessionId"))}&success=true`;
  return screenAction(args, {
    user: null,
    form,
    intents: {
      library: intent({
        procedure: requestLibraryRefund,
        reply: flashRefusal(library, (refusal) => refused(refusal.message)),
        onSuccess: () => redirectWithFlash(library, ASKED),
      }),
      receipt: intent({
        procedure: requestRefund,
        reply: flashRefusal(receipt, (refusal) => refused(refusal.message)),
        onSuccess: () => redirectWithFlash(receipt, ASKED),
      }),
    },
    unknownIntent: () => json({ message: "Unknown refund request" }, { status: 400 }),
  });
}
