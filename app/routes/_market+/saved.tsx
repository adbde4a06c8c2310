import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { json, redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { PageHeader } from "~/ui/page-header";
import { SavedList } from "~/features/market/saved/components/saved-list";
import { countListingSave, viewSaved } from "~/features/market/saved/procedures.server";
import type { FlashMessage } from "~/lib/flash";
import { backToItem } from "~/lib/back-to-item";
import { MAX_SAVED_LISTINGS, SAVED_LISTINGS_FULL } from "~/lib/limits";
import { PRODUCT_NAME } from "~/lib/product";
import { redirectWithFlash } from "~/web/flash.server";
import {
  isListingId,
  readSaved,
  savedHeader,
  saveListing,
  unsaveListing,
} from "~/web/saved-listings.server";
import { loadProcedure, plainIntent, screenAction } from "~/web/screen-action.server";

export const meta: MetaFunction = () => [
  { title: `Saved listings | ${PRODUCT_NAME}` },
  // One browser's own list: nothing for a search engine.
  { name: "robots", content: "noindex" },
];

const NOT_FOR_SALE: FlashMessage = {
  kind: "error",
  title: "Not for sale",
  description: "This listing is not for sale any more, so it cannot be saved.",
};

/**
 * GET /saved: the listings this browser saved (its signed cookie; no
 * account), newest first, each with its price now or marked no longer
 * available. Public.
 */
export async function loader(args: LoaderFunctionArgs) {
  const ids = await readSaved(args.request);
  const listings = await loadProcedure(viewSaved, args, { listingIds: ids }, null);
  return json({ listings });
}

/**
 * POST /saved: intent save | remove (listingId) changes the saved list's
 * cookie. A save puts a live listing in front; the list holds at most
 * MAX_SAVED_LISTINGS, and a save past that (or of a listing not for sale)
 * says why and changes nothing. A listing newly saved counts for its
 * creator's analytics (never who saved). Forms posted without JavaScript come back to
 * `redirectTo`, scrolled to `anchor` (the item), with any refusal as a flash
 * message; fetcher posts (enhanced=1) get JSON (409 when full, 404 when not
 * for sale) and the page revalidates.
 */
export async function action(args: ActionFunctionArgs) {
  // Public, same-origin forms only.
  const { request } = args;
  const change = (intent: "save" | "remove") =>
    plainIntent(async (formData) => {
      const listingId = formData.get("listingId");
      if (!isListingId(listingId))
        return json({ ok: false, message: "Unknown listing." }, { status: 400 });
      const enhanced = formData.get("enhanced") === "1";
      const back = backToItem(formData, null, "/saved");
      const refuse = (status: number, message: FlashMessage) =>
        enhanced
          ? json({ ok: false, message: message.description }, { status })
          : redirectWithFlash(back, message);
      const before = await readSaved(request);
      let after: readonly string[];
      if (intent === "save") {
        const [listing] = await loadProcedure(viewSaved, args, { listingIds: [listingId] }, null);
        if (!listing?.available) return refuse(404, NOT_FOR_SALE);
        const saved = saveListing(before, listingId);
        // The list stays as it was: no cookie is set.
        if (saved.full) return refuse(409, { kind: "error", ...SAVED_LISTINGS_FULL });
        // The creator's analytics: a listing newly saved counts once per visitor, listing and day.
        if (!before.includes(listingId)) await loadProcedure(countListingSave, args, { listingId });
        after = saved.ids;
      } else {
        after = unsaveListing(before, listingId);
      }
      const headers = { "Set-Cookie": await savedHeader(after) };
      if (enhanced)
        return json(
          { ok: true, saved: after.includes(listingId), count: after.length },
          { headers },
        );
      return redirect(back, { headers });
    });
  return screenAction(args, {
    user: null,
    unknownIntent: () =>
      json({ ok: false, message: "Unknown saved-listings action." }, { status: 400 }),
    intents: { save: change("save"), remove: change("remove") },
  });
}

export default function SavedPage() {
  const { listings } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <PageHeader
        title="Saved listings"
        subtitle={`The images you saved in this browser, with their prices now. No account needed: they stay here for a year, up to ${MAX_SAVED_LISTINGS}.`}
        back={{ to: "/marketplace", label: "Back to Marketplace", look: "btn-ghost" }}
      />
      <div className="mt-6">
        <SavedList listings={listings} />
      </div>
    </div>
  );
}
