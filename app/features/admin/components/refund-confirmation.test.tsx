// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { useSearchParams } from "@remix-run/react";
import { RefundConfirmation } from "~/features/admin/components/refund-confirmation";
import type { AdminOrder } from "~/features/admin/sales-types";

afterEach(cleanup);

const ORDER: AdminOrder = {
  id: "ord_123",
  status: "paid",
  provider: "test",
  customerEmail: "bea@example.com",
  customerName: "Bea Buyer",
  total: "37.5",
  refunded: "0",
  createdAt: "2026-03-04T12:00:00.000Z",
  paidAt: null,
  refundedAt: null,
  refundReason: null,
  disputeStatus: null,
  items: [
    {
      saleReference: "sale-l1",
      listingId: "l1",
      title: "Sunset Portrait",
      creatorId: "creator-1",
      creatorName: "Cora Creator",
      price: "37.50",
    },
  ],
};

function renderConfirmation(
  action: (args: { request: Request }) => Promise<unknown> = async () => null,
) {
  return renderWithRemix(
    [
      {
        path: "/admin",
        action,
        Component: function AdminStub() {
          const [params] = useSearchParams();
          return (
            <>
              <p>Orders, status {params.get("orderStatus")}</p>
              {params.get("refund") === ORDER.id ? (
                <RefundConfirmation order={ORDER} closeHref="/admin?orderStatus=paid" />
              ) : null}
            </>
          );
        },
      },
    ],
    { url: "/admin?orderStatus=paid&refund=ord_123" },
  );
}

describe("RefundConfirmation", () => {
  it("asks to confirm with the amount, the buyer and what the refund does", async () => {
    renderConfirmation();
    const dialog = await screen.findByRole("dialog", { name: "Refund order ord_123?" });
    expect(dialog).toHaveTextContent("$37.50");
    expect(dialog).toHaveTextContent("bea@example.com");
    expect(dialog).toHaveTextContent(
      "The buyer gets $37.50 back, the order's download links stop working, its license is revoked and the creators' shares are reversed.",
    );
    expect(screen.getByLabelText(/Reason/)).toHaveAttribute("maxLength", "500");
    expect(screen.getByRole("button", { name: "Refund $37.50" })).toBeEnabled();
  });

  it("posts intent=refund-order with the order id and reason to the page it is on", async () => {
    let received: FormData | undefined;
    let release: () => void = () => {};
    renderConfirmation(async ({ request }) => {
      expect(new URL(request.url).search).toBe("?orderStatus=paid&refund=ord_123");
      received = await request.formData();
      await new Promise<void>((resolve) => (release = resolve));
      return null;
    });
    await screen.findByRole("dialog");
    await userEvent.type(screen.getByLabelText(/Reason/), "Bought twice");
    await userEvent.click(screen.getByRole("button", { name: "Refund $37.50" }));
    expect(await screen.findByRole("button", { name: "Refunding..." })).toBeDisabled();
    expect(received?.get("intent")).toBe("refund-order");
    expect(received?.get("orderId")).toBe("ord_123");
    expect(received?.get("reason")).toBe("Bought twice");
    release();
    expect(await screen.findByRole("button", { name: "Refund $37.50" })).toBeEnabled();
  });

  it("cancels with the Cancel button and with Escape, going to the close URL", async () => {
    renderConfirmation();
    await screen.findByRole("dialog");
    await userEvent.click(screen.getByRole("button", { name: "Cancel" }));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 2000 });
    expect(screen.getByText("Orders, status paid")).toBeInTheDocument();

    cleanup();
    renderConfirmation();
    await screen.findByRole("dialog");
    await userEvent.keyboard("{Escape}");
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).toBeNull(), { timeout: 2000 });
  });

  it("refunds only what is left of a partly refunded order", async () => {
    renderWithRemix(
      [
        {
          path: "/admin",
          Component: () => (
            <RefundConfirmation order={{ ...ORDER, refunded: "12.5" }} closeHref="/admin" />
          ),
        },
      ],
      { url: "/admin" },
    );
    expect(await screen.findByRole("button", { name: "Refund $25.00" })).toBeInTheDocument();
  });
});
