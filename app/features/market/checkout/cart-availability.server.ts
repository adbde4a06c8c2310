import { badRequest } from "~/infra/errors.server";

/**
 * What was found for each id of the cart, in the cart's order; a 400 naming
 * the ids no longer available (withdrawn, hidden, gone) when any is missing.
 */
export function inCartOrder<T>(
  ids: string[],
  found: Map<string, T>,
  what: "image" | "bundle",
): T[] {
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length > 0) {
    const message =
      missing.length === 1
        ? `${what === "image" ? "An image" : "A bundle"} in your cart is no longer available. Please remove it and try again.`
        : `Some ${what}s in your cart are no longer available. Please remove them and try again.`;
    throw badRequest(message, { cartItems: missing.map((id) => `Not available: ${id}`) });
  }
  return ids.map((id) => found.get(id)!);
}
