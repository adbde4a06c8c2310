import { describe, expect, it } from "vitest";
import { allocateRefund, creatorPartOfRefund } from "~/features/payouts/ledger/shares.server";
import { splitSale } from "~/features/payouts/ledger/earnings.server";

const share = (priceCents: number, refunded = { creator: 0, platform: 0 }) => {
  const { creatorCents, platformCents } = splitSale(priceCents);
  return {
    id: `s${priceCents}`,
    priceCents,
    amountCents: creatorCents,
    feeCents: platformCents,
    creatorReversedCents: refunded.creator,
    platformReversedCents: refunded.platform,
  };
};

describe("allocateRefund", () => {
  it("spreads a refund over the items in proportion to what is left of each, to the cent", () => {
    expect(allocateRefund([share(2500), share(1000)], 700)).toEqual([500, 200]);
    expect(allocateRefund([share(2500), share(1000)], 3500)).toEqual([2500, 1000]);
    // 1 cent over three equal items: the earliest item takes it.
    expect(allocateRefund([share(100), share(100), share(100)], 1)).toEqual([1, 0, 0]);
    expect(allocateRefund([share(100), share(100), share(100)], 2)).toEqual([1, 1, 0]);
  });

  it("counts what earlier refunds took, and never takes more than an item has left", () => {
    const first = share(1000, { creator: 850, platform: 150 });
    expect(allocateRefund([first, share(1000)], 500)).toEqual([1000, 500]);
    expect(() => allocateRefund([first, share(1000)], 1001)).toThrow(/exceeds/);
  });
});

describe("creatorPartOfRefund", () => {
  it("gives back 85% of a partial refund, the whole share for a whole item, and stays within share and fee", () => {
    const item = share(2500);
    expect(creatorPartOfRefund(item, 1000)).toBe(850);
    expect(creatorPartOfRefund(item, 2500)).toBe(2125);
    for (let price = 1; price <= 400; price++) {
      const each = share(price);
      let previous = 0;
      for (let refunded = 0; refunded <= price; refunded++) {
        const creator = creatorPartOfRefund(each, refunded);
        expect(creator).toBeGreaterThanOrEqual(previous);
        expect(creator).toBeLessThanOrEqual(each.amountCents);
        expect(refunded - creator).toBeGreaterThanOrEqual(0);
        expect(refunded - creator).toBeLessThanOrEqual(each.feeCents);
        previous = creator;
      }
    }
  });
});
