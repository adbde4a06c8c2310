import { z } from "zod";

/**
 * The parts of a paged list's query string (the admin's audit log, the
 * marketplace and storefronts): a form or a link sends an emptied field as ""
 * and a missing one as null, and both mean "not given".
 */
export const emptyToUndefined = (value: unknown) =>
  value === "" || value === null ? undefined : value;

/** How many entries a page holds, as the query string says it: a whole number from 1 to `max`. */
export const pageLimit = (max: number) =>
  z.coerce
    .number("limit must be a number")
    .int("limit must be a whole number")
    .min(1, "limit must be at least 1")
    .max(max, `limit is at most ${max}`);
