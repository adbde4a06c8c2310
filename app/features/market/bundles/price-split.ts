/**
 * A bundle's price split over its items in proportion to their own prices,
 * in whole cents that add up to the bundle's price exactly: each item gets the
 * whole cents of its exact part, and the cents left over go one each to the
 * items with the largest fractions left (largest remainder; on a tie, the
 * earlier item). The same prices always split the same way.
 */
export function splitBundlePrice(bundleCents: number, itemCents: readonly number[]): number[] {
  const sum = itemCents.reduce((total, cents) => total + cents, 0);
  if (!Number.isSafeInteger(bundleCents) || bundleCents < 0 || sum <= 0)
    throw new Error(`Cannot split ${bundleCents} cents over ${itemCents.join("/")}`);
  const parts = itemCents.map((cents, index) => ({
    index,
    whole: Math.floor((bundleCents * cents) / sum),
    remainder: (bundleCents * cents) % sum,
  }));
  let left = bundleCents - parts.reduce((total, part) => total + part.whole, 0);
  const byRemainder = [...parts].sort((a, b) => b.remainder - a.remainder || a.index - b.index);
  for (const part of byRemainder) {
    if (left === 0) break;
    part.whole += 1;
    left -= 1;
  }
  return parts.map((part) => part.whole);
}
