import { useFetcher } from "@remix-run/react";
import { BookmarkIcon } from "~/ui/bookmark-icon";
import { useBuyerLists } from "~/ui/buyer-lists";
import { ListingFormFields } from "~/features/market/catalog/components/listing-form-fields";

/** What POST /saved answers a fetcher (enhanced=1). */
interface SaveReply {
  ok: boolean;
  saved?: boolean;
  count?: number;
  message?: string;
}

/**
 * Save a listing for later, or take it off the saved list: a real form
 * posting to /saved, so it works without JavaScript (the action comes back to
 * `redirectTo`, scrolled to `anchor`). With JavaScript it posts through a
 * fetcher and turns at once into "Saved" beside "Remove from saved" (the
 * buyer's lists count the form in flight); a refusal (the list is full) shows
 * under it. The button stays the same element either way, so it keeps the
 * keyboard's focus. Its name is the visible label, then the listing's title.
 * `compact` (the saved page's own rows) is the button alone.
 */
export function SaveButton({
  listingId,
  title,
  redirectTo,
  anchor,
  compact = false,
}: {
  listingId: string;
  title: string;
  redirectTo: string;
  /** Without JavaScript, the page comes back scrolled to this element id (the listing's card). */
  anchor?: string;
  /** The button alone, small (the saved page's rows). */
  compact?: boolean;
}) {
  const fetcher = useFetcher<SaveReply>({ key: `saved-${listingId}` });
  const saved = useBuyerLists().saved.has(listingId);
  const reply = fetcher.state === "idle" ? fetcher.data : undefined;
  const refusal = reply && !reply.ok ? reply.message : null;
  return (
    <fetcher.Form method="post" action="/saved">
      <ListingFormFields listingId={listingId} redirectTo={redirectTo} anchor={anchor} />
      <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
        {saved && !compact ? (
          // Read once, from the status below.
          <span
            aria-hidden="true"
            className="inline-flex items-center gap-1.5 text-sm font-medium text-brand-700"
            data-testid="saved-mark"
          >
            <BookmarkIcon className="h-4 w-4" filled />
            Saved
          </span>
        ) : null}
        <button
          type="submit"
          name="intent"
          value={saved ? "remove" : "save"}
          className={
            saved || compact
              ? "btn-ghost px-2 py-1 text-sm"
              : "btn-ghost w-full border border-slate-200"
          }
          data-testid={saved ? "unsave-listing" : "save-listing"}
        >
          {saved ? null : <BookmarkIcon className="h-4 w-4" />}
          {saved ? "Remove from saved" : "Save"}
          <span className="sr-only">: {title}</span>
        </button>
      </div>
      {/* Always in the page (visually hidden), so a screen reader hears the change. */}
      <span role="status" className="sr-only">
        {saved && !compact ? "Saved" : ""}
      </span>
      {refusal ? (
        <p role="alert" className="mt-1 text-sm text-red-700" data-testid="save-refusal">
          {refusal}
        </p>
      ) : null}
    </fetcher.Form>
  );
}
