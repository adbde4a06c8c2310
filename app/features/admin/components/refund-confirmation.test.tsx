// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it, vi } from "vitest";
import { cleanup, screen } from "@testing-library/react";
import { renderWithRemix } from "#tests/setup/render-route";
import userEvent from "@testing-library/user-event";
import { RefundConfirmation } from "~/features/admin/components/refund-confirmation";
import {
  adminOrder,
  adminOrderItem,
  renderAdminDialog,
} from "~/features/admin/components/test-support";

afterEach(cleanup);

const ORDER = adminOrder({ total: "37.5", items: [adminOrderItem({ price: "37.50" })] });

function renderConfirmation(action?: (args: { request: Request }) => Promise<unknown>) {
  return renderAdminDialog({
    url: "/admin?orderStatus=paid&refund=ord_123",
    page: (params) => `Orders, status ${params.get("orderStatus")}`,
    dialog: (params) =>
      params.get("refund") === ORDER.id ? (
        <RefundConfirmation order={ORDER} closeHref="/admin?orderStatus=paid" />
      ) : null,
    action,
  });
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
