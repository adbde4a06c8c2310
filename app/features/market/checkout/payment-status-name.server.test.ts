import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { createPendingOrder } from "~/features/market/orders/orders.server";
import { paymentStatusOf } from "~/features/market/checkout/payment-status.server";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";

async function statusOfOrderBy(customer: { name: string; email: string }) {
  const db = getDb();
  const creator = await createTestUser();
  const { listing } = await createListing(creator.user.id);
  const { order } = await createPendingOrder(db, {
    provider: "test",
    customer,
    listingIds: [listing.id],
    now: new Date(),
  });
  return paymentStatusOf(db, order, "cs_name", "http://localhost:3000", {
    now: new Date(),
    windowDays: 14,
  });
}

describe("the payment status names the buyer", () => {
  it("carries the name the buyer typed at checkout", async () => {
    const status = await statusOfOrderBy({ name: "Bea Buyer", email: "bea.buyer@example.com" });
    expect(status.customerName).toBe("Bea Buyer");
    expect(status.customerEmail).toBe("bea.buyer@example.com");
  });

  it("has no name when the stored name is only the address (a sale from elsewhere without a name)", async () => {
    const status = await statusOfOrderBy({
      name: "bea.buyer@example.com",
      email: "bea.buyer@example.com",
    });
    expect(status.customerName).toBeNull();
  });
});
