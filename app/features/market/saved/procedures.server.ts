import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { MAX_SAVED_LISTINGS } from "~/lib/limits";
import { savedListings } from "~/features/market/saved/saved-listings.server";
import { recordListingSave } from "~/features/market/analytics/listing-saves.server";
import { visitorOf } from "~/features/market/analytics/listing-visitors.server";

/**
 * The listings a browser saved (GET /saved, and POST /saved's check that a
 * listing may be saved): each one for sale with its current price, or marked
 * no longer available. Public: the list belongs to the browser (its signed
 * cookie, read by the route), not to an account.
 */
export const viewSaved = defineProcedure({
  name: "viewSaved",
  access: "public",
  input: z.object({
    listingIds: z.array(z.string().min(1).max(64)).max(MAX_SAVED_LISTINGS),
  }),
  run: ({ input, ctx }) => savedListings(ctx.db, input.listingIds),
});

/**
 * POST /saved's save of a listing not saved already: it counts for its
 * creator's analytics once per visitor (the signed-in user, else the client
 * address, as a keyed hash of the day), listing and UTC day, at most
 * SAVES_COUNTED_PER_VISITOR_DAY listings per visitor and day; never the
 * creator's own. Nothing says who saved (docs/decisions/099).
 */
export const countListingSave = defineProcedure({
  name: "countListingSave",
  access: "public",
  input: z.object({ listingId: z.string().min(1).max(64) }),
  async run({ input, user, ctx }) {
    const visitor = visitorOf({ user, clientIp: ctx.clientIp, now: ctx.now });
    return { counted: await recordListingSave(ctx.db, input.listingId, visitor, ctx.now) };
  },
});
