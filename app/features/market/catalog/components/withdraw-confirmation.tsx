import { Form, useNavigation } from "@remix-run/react";
import { UrlDialog } from "~/ui/url-dialog";
import { ConfirmActions } from "~/ui/confirm-actions";
import { hrefWithQuery } from "~/lib/query-href";

/** The query parameter that opens the withdraw confirmation (?confirmWithdraw=<listing id>), with or without JavaScript. */
export const CONFIRM_WITHDRAW_PARAM = "confirmWithdraw";

/** /listings with `search` (e.g. location.search) and ?confirmWithdraw= set to `id`, or removed when `id` is null. */
export function confirmWithdrawHref(search: string, id: string | null): string {
  return hrefWithQuery("/listings", search, { [CONFIRM_WITHDRAW_PARAM]: id });
}

/**
 * "Withdraw “title”?": the one place a listing is withdrawn from /listings.
 * Without JavaScript the server renders it as a plain modal panel whose Cancel
 * is a link back; with JavaScript it is a dialog (app/ui/url-dialog.tsx). Its
 * Withdraw button posts intent=withdraw, which redirects to `closeHref`, so the
 * confirmation closes with the withdrawal.
 */
export function WithdrawConfirmation({
  listing,
  closeHref,
}: {
  listing: { id: string; title: string };
  closeHref: string;
}) {
  const navigation = useNavigation();
  const pending =
    navigation.state === "submitting" &&
    navigation.formData?.get("intent") === "withdraw" &&
    navigation.formData?.get("listingId") === listing.id;
  return (
    <UrlDialog
      title={`Withdraw “${listing.title}”?`}
      titleId="withdraw-confirmation-title"
      testId="withdraw-confirmation"
      closeHref={closeHref}
    >
      {(cancel) => (
        <Form method="post" action="/listings" preventScrollReset className="mt-4">
          <input type="hidden" name="intent" value="withdraw" />
          <input type="hidden" name="listingId" value={listing.id} />
          <input type="hidden" name="redirectTo" value={closeHref} />
          <p className="text-sm text-slate-700">
            It leaves the marketplace at once and can no longer be bought. Buyers who already bought
            it keep their downloads and licenses. You can list the image again later from your
            dashboard.
          </p>
          <ConfirmActions
            cancel={cancel}
            pending={pending}
            pendingLabel="Withdrawing..."
            label="Withdraw"
          />
        </Form>
      )}
    </UrlDialog>
  );
}
