import type { ProcedureResult } from "~/infra/procedure.server";
import type { buyerLibrary } from "~/features/market/library/procedures.server";
import { LIBRARY_LINK_SENT } from "~/features/market/library/library-schema";

type Library = NonNullable<ProcedureResult<typeof buyerLibrary>>;

/** What the /library page's query carries besides the token's library. */
export interface LibraryQuery {
  token: string;
  rated: string | null;
  sent: boolean;
}

/**
 * The /library page: the token's library (`valid: true`), or an empty one
 * (`valid: false`) when the token was missing, bad or expired, where the page
 * offers to mail a new link; the token only when it is valid, the item just
 * rated, and the confirmation after a link was asked for.
 */
export function libraryPageView(library: Library | null, query: LibraryQuery) {
  const shelf = library
    ? { valid: true as const, ...library }
    : {
        valid: false as const,
        email: null,
        expiresAt: null,
        orders: [] as Library["orders"],
        ratings: {} as Library["ratings"],
      };
  return {
    ...shelf,
    token: library ? query.token : "",
    rated: query.rated,
    hadToken: Boolean(query.token),
    sent: query.sent,
    sentMessage: query.sent ? LIBRARY_LINK_SENT : null,
  };
}
