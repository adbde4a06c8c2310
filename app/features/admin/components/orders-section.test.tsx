// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen, within } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { useLocation } from "@remix-run/react";
import { OrdersSection } from "~/features/admin/components/orders-section";
import type { AdminOrder } from "~/features/admin/sales-types";
import { adminOrder, adminOrderItem } from "~/features/admin/components/test-support";

afterEach(cleanup);

const ORDERS: AdminOrder[] = [
  adminOrder({
    id: "ord_paid_1",
    total: "37.5",
    items: [
      adminOrderItem(),
      adminOrderItem({
        saleReference: "sale-l2",
        listingId: "l2",
        title: "Noir Portrait",
        creatorId: "creator-2",
        creatorName: "Deleted creator",
        price: "12.50",
      }),
    ],
  }),
  adminOrder({
    id: "ord_refunded_2",
    status: "refunded",
    provider: "stripe",
    customerEmail: "dan@example.com",
    customerName: "Dan Doe",
    createdAt: "2026-03-01T12:00:00.000Z",
    refunded: "25",
  }),
];

function renderSection(
  url: string,
  props: { orders?: AdminOrder[]; orderSearch?: string; orderStatus?: string } = {},
) {
  return renderWithRemix(
    [
      {
        path: "/admin",
        Component: function AdminStub() {
          const location = useLocation();
          return (
            <>
              <p data-testid="location">{location.search}</p>
              <OrdersSection
                orders={props.orders ?? ORDERS}
                orderSearch={props.orderSearch ?? ""}
                orderStatus={props.orderStatus ?? ""}
              />
            </>
          );
        },
      },
    ],
    { url: url },
  );
}

const row = (id: string) => document.querySelector(`[data-order-id="${id}"]`) as HTMLElement;

describe("OrdersSection", () => {
  it("shows each order: id, date, buyer, status, provider, total, refunded and items", () => {
    renderSection("/admin");
    expect(screen.getByRole("heading", { name: "Orders" })).toBeInTheDocument();
    expect(screen.getAllByRole("columnheader").map((th) => th.textContent)).toEqual([
      "Order",
      "Buyer",
      "Status",
      "Total",
      "Refunded",
      "Items",
      "Actions",
    ]);

    const paid = within(row("ord_paid_1"));
    expect(paid.getByText("ord_paid_1")).toHaveClass("font-mono");
    expect(row("ord_paid_1").querySelector("time")?.getAttribute("datetime")).toBe(
      "2026-03-04T12:00:00.000Z",
    );
    expect(paid.getByText("Bea Buyer")).toBeInTheDocument();
    expect(paid.getByText("bea@example.com")).toBeInTheDocument();
    expect(paid.getByTestId("order-status")).toHaveTextContent("Paid");
    expect(paid.getByTestId("test-badge")).toHaveTextContent("Test");
    expect(paid.getByText("$37.50")).toBeInTheDocument();
    expect(paid.getByText("Noir Portrait")).toBeInTheDocument();
    expect(paid.getByText("$12.50")).toBeInTheDocument();
    // Each item names its creator (first and last name as stored; an erased one reads "Deleted creator"), never by id.
    expect(paid.getAllByTestId("order-item-creator").map((line) => line.textContent)).toEqual([
      "Creator: Cora Creator",
      "Creator: Deleted creator",
    ]);
    expect(row("ord_paid_1")).not.toHaveTextContent("creator-1");
    expect(row("ord_paid_1")).not.toHaveTextContent("creator-2");

    const refunded = within(row("ord_refunded_2"));
    expect(refunded.getByTestId("order-status")).toHaveTextContent("Refunded");
    expect(refunded.queryByTestId("test-badge")).toBeNull();
    expect(refunded.getByText("Stripe")).toBeInTheDocument();
    expect(refunded.getAllByText("$25.00")).toHaveLength(3);
  });

  it("offers Refund… only on paid orders, as a link that keeps the search", () => {
    renderSection("/admin?q=cora&orderStatus=paid");
    expect(screen.getAllByTestId("refund-link")).toHaveLength(1);
    const link = within(row("ord_paid_1")).getByRole("link", { name: "Refund order ord_paid_1" });
    expect(link).toHaveTextContent("Refund…");
    expect(link).toHaveAttribute("href", "/admin?q=cora&orderStatus=paid&refund=ord_paid_1");
    expect(within(row("ord_refunded_2")).queryByRole("link", { name: /Refund/ })).toBeNull();
  });

  it("searches with a GET form: text, a status out of all six, and the user search kept", async () => {
    renderSection("/admin?q=cora", { orderSearch: "", orderStatus: "" });
    const form = screen.getByRole("search", { name: "Search orders" });
    expect(form).toHaveAttribute("method", "get");
    expect(form).toHaveAttribute("action", "/admin");
    const select = screen.getByLabelText("Order status");
    expect(
      within(select)
        .getAllByRole("option")
        .map((option) => option.textContent),
    ).toEqual(["All statuses", "Pending", "Paid", "Refunded", "Disputed", "Failed", "Expired"]);
    await userEvent.type(screen.getByLabelText("Buyer email or order ID"), "bea");
    await userEvent.selectOptions(select, "refunded");
    await userEvent.click(screen.getByRole("button", { name: "Search orders" }));
    await vi.waitFor(() =>
      expect(
        Object.fromEntries(new URLSearchParams(screen.getByTestId("location").textContent ?? "")),
      ).toEqual({
        q: "cora",
        orderSearch: "bea",
        orderStatus: "refunded",
      }),
    );
  });

  it("says so when nothing matches, with a Clear link that keeps the user search", () => {
    renderSection("/admin?q=cora&orderSearch=zzz", { orders: [], orderSearch: "zzz" });
    expect(screen.getByTestId("no-orders")).toHaveTextContent("No orders match this search.");
    expect(screen.getByRole("link", { name: "Clear" })).toHaveAttribute("href", "/admin?q=cora");
  });

  it("stacks into labelled cards on phones: buyer, status, amounts and items each named, Refund… in the card", () => {
    renderSection("/admin");
    expect(screen.getByRole("table").className).toContain("sm:table");
    const first = document.querySelector<HTMLElement>("[data-testid=order-row]")!;
    const labels = Array.from(first.querySelectorAll("td"))
      .map((td) => td.getAttribute("data-label"))
      .filter(Boolean);
    expect(labels).toEqual(["Buyer", "Status", "Total", "Refunded", "Items"]);
  });
});
