// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, describe, expect, it } from "vitest";
import { cleanup, screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { renderWithRemix } from "#tests/setup/render-route";
import { RefundRequestPanel } from "~/features/market/orders/components/refund-request-form";
import { RefundRequestsSection } from "~/features/market/orders/components/refund-requests-section";
import { CheckoutForm } from "~/features/market/checkout/components/checkout-form";
import { RefundPolicyProvider } from "~/features/market/checkout/components/refund-policy";
import { WAITING_REFUND_REQUEST } from "#tests/setup/admin-refund-request";

/** The buyer's refund panel, the admin's Refund requests and the checkout's policy line. */

afterEach(cleanup);

/** Renders `ui` at `url`, with `path` taking posts: answers the forms it received. */
function renderPosting(ui: JSX.Element, url: string, path: string) {
  const posted: Record<string, string>[] = [];
  renderWithRemix(
    [
      { path: new URL(url, "http://x").pathname, Component: () => ui },
      {
        path,
        action: async ({ request }) => {
          posted.push(Object.fromEntries((await request.formData()) as never));
          return null;
        },
        Component: () => <p>posted</p>,
      },
    ],
    { url },
  );
  return posted;
}

describe("RefundRequestPanel", () => {
  it("while the window is open, asks for a reason and posts it with the page's key to /refund-requests", async () => {
    const posted = renderPosting(
      <RefundRequestPanel
        request={null}
        refundableUntil="2026-03-15T12:00:00.000Z"
        keyFields={{ intent: "library", token: "tok", orderId: "ord_1" }}
        formId="refund-ord_1"
      />,
      "/library",
      "/refund-requests",
    );
    const user = userEvent.setup();
    await user.click(await screen.findByText("Ask for a refund", { selector: "summary" }));
    const form = screen.getByTestId("refund-request-form");
    expect(form).toHaveTextContent("Refunds are given on request until March 15, 2026.");
    const reason = within(form).getByLabelText("Why do you ask for a refund?");
    expect(reason).toBeRequired();
    expect(reason).toHaveAttribute("maxLength", "1000");
    await user.type(reason, "Blurry at full size.");
    await user.click(within(form).getByRole("button", { name: "Ask for a refund" }));
    await screen.findByText("posted");
    expect(posted).toEqual([
      {
        intent: "library",
        token: "tok",
        orderId: "ord_1",
        formId: "refund-ord_1",
        reason: "Blurry at full size.",
      },
    ]);
  });

  it("shows a request's state instead of the form, the admin's reason when declined", async () => {
    renderWithRemix(
      <RefundRequestPanel
        request={{
          status: "declined",
          requestedAt: "2026-03-04T12:00:00.000Z",
          decidedAt: "2026-03-05T12:00:00.000Z",
          declineReason: "The file matches the preview.",
        }}
        refundableUntil={null}
        keyFields={{}}
        formId="x"
      />,
      { url: "/library" },
    );
    expect(await screen.findByTestId("refund-request-state")).toHaveTextContent(
      "Refund requested and declined: The file matches the preview.",
    );
    expect(screen.queryByTestId("refund-request-form")).not.toBeInTheDocument();
  });

  it("shows nothing once the window has closed without a request", async () => {
    renderWithRemix(
      <div data-testid="page">
        <RefundRequestPanel request={null} refundableUntil={null} keyFields={{}} formId="x" />
      </div>,
      { url: "/library" },
    );
    expect(await screen.findByTestId("page")).toBeEmptyDOMElement();
  });
});

describe("RefundRequestsSection", () => {
  it("lets the admin decline a waiting request with a reason (a plain post to /admin)", async () => {
    const posted = renderPosting(
      <RefundRequestsSection
        requests={[
          WAITING_REFUND_REQUEST,
          {
            ...WAITING_REFUND_REQUEST,
            id: "rr2",
            orderId: "ord_2",
            status: "declined",
            decidedAt: "2026-03-05T12:00:00.000Z",
            declineReason: "Too late.",
          },
        ]}
      />,
      "/portal",
      "/admin",
    );
    const [waiting, declined] = await screen.findAllByTestId("refund-request-item");
    expect(waiting).toHaveTextContent("Not what the preview showed.");
    expect(waiting).toHaveTextContent("bea@example.com");
    expect(screen.getByTestId("refund-requests-summary")).toHaveTextContent(
      "1 waits for a decision",
    );
    expect(declined).toHaveTextContent("Declined March 5, 2026: Too late.");
    expect(within(declined).queryByRole("button")).not.toBeInTheDocument();
    expect(
      within(waiting).getByRole("button", { name: "Approve: refund order ord_1" }),
    ).toBeInTheDocument();

    const user = userEvent.setup();
    await user.type(within(waiting).getByLabelText(/Why decline/), "Matches the preview.");
    await user.click(
      within(waiting).getByRole("button", { name: "Decline the refund of order ord_1" }),
    );
    await screen.findByText("posted");
    expect(posted).toEqual([
      { intent: "decline-refund-request", id: "rr1", reason: "Matches the preview." },
    ]);
  });
});

describe("CheckoutForm", () => {
  it("states the refund policy with the setting's window", async () => {
    renderWithRemix(
      <RefundPolicyProvider days={30}>
        <CheckoutForm itemCount={1} totalCents={2000} />
      </RefundPolicyProvider>,
      { url: "/cart" },
    );
    expect(await screen.findByTestId("refund-policy")).toHaveTextContent(
      "Refunds within 30 days on request: ask from your receipt or your library, with a reason.",
    );
  });
});
