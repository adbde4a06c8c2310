// @vitest-environment jsdom
import { act, fireEvent, render, screen, within } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { FlashMessage } from "~/lib/flash";
import {
  DialogToastSlot,
  ERROR_TOAST_DURATION_MS,
  TOAST_DURATION_MS,
  ToastProvider,
  ToastRegion,
  useToast,
} from "~/ui/toaster";

function Trigger({ message, label = "show" }: { message: FlashMessage; label?: string }) {
  const toast = useToast();
  return (
    <button type="button" onClick={() => toast(message)}>
      {label}
    </button>
  );
}

/** A page (`props` of the provider's) whose one button, "show", toasts `message`. */
function pageShowing(
  message: FlashMessage,
  props: Omit<React.ComponentProps<typeof ToastProvider>, "children">,
) {
  return (
    <ToastProvider {...props}>
      <Trigger message={message} />
    </ToastProvider>
  );
}

describe("ToastProvider", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("closes a toast by itself after about five seconds", () => {
    render(pageShowing({ kind: "success", title: "Saved" }, { flash: null }));
    fireEvent.click(screen.getByRole("button", { name: "show" }));
    expect(screen.getByTestId("toast")).toHaveTextContent("Saved");
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 100));
    expect(screen.getByTestId("toast")).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(200));
    expect(screen.queryByTestId("toast")).toBeNull();
  });

  it("closes the toast of the page before when the page changes, and shows a flash that comes with the new page", () => {
    const { rerender } = render(
      pageShowing({ kind: "error", title: "Payment failed" }, { flash: null, page: "/checkout" }),
    );
    fireEvent.click(screen.getByRole("button", { name: "show" }));
    expect(screen.getByTestId("toast")).toHaveTextContent("Payment failed");
    // Another page: the checkout's toast does not follow the buyer there.
    rerender(
      pageShowing(
        { kind: "error", title: "Payment failed" },
        { flash: null, page: "/marketplace" },
      ),
    );
    expect(screen.queryByTestId("toast")).toBeNull();
    fireEvent.click(screen.getByRole("button", { name: "show" }));
    // Back to the checkout with a flash of its own: that one shows, not the old one.
    rerender(
      pageShowing(
        { kind: "error", title: "Payment failed" },
        { flash: { kind: "success", title: "Added to cart" }, page: "/checkout" },
      ),
    );
    expect(screen.getByTestId("toast")).toHaveTextContent("Added to cart");
    expect(screen.getByTestId("toast")).not.toHaveTextContent("Payment failed");
  });

  it("closes the toast showing when a form is sent, so it never sits beside the next form's answer", () => {
    const { rerender } = render(
      pageShowing(
        { kind: "error", title: "Integration failed" },
        { flash: null, page: "/integrations" },
      ),
    );
    fireEvent.click(screen.getByRole("button", { name: "show" }));
    expect(screen.getByTestId("toast")).toHaveTextContent("Integration failed");
    rerender(
      pageShowing(
        { kind: "error", title: "Integration failed" },
        { flash: null, page: "/integrations", submitting: true },
      ),
    );
    expect(screen.queryByTestId("toast")).toBeNull();
  });

  it("keeps an error a little longer", () => {
    render(
      <ToastProvider flash={{ kind: "error", title: "Login failed" }}>
        <p>page</p>
      </ToastProvider>,
    );
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS + 100));
    expect(screen.getByTestId("toast")).toHaveTextContent("Login failed");
    act(() => vi.advanceTimersByTime(ERROR_TOAST_DURATION_MS - TOAST_DURATION_MS));
    expect(screen.queryByTestId("toast")).toBeNull();
  });

  it("shows one toast at a time: a new one replaces the old and gets its full time", () => {
    render(
      <ToastProvider flash={null}>
        <Trigger message={{ kind: "info", title: "First" }} label="first" />
        <Trigger message={{ kind: "info", title: "Second" }} label="second" />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "first" }));
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS - 1000));
    fireEvent.click(screen.getByRole("button", { name: "second" }));
    expect(screen.getAllByTestId("toast")).toHaveLength(1);
    expect(screen.getByTestId("toast")).toHaveTextContent("Second");
    act(() => vi.advanceTimersByTime(2000));
    expect(screen.getByTestId("toast")).toHaveTextContent("Second");
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(screen.queryByTestId("toast")).toBeNull();
  });

  it("closes with its Dismiss button", () => {
    render(
      <ToastProvider flash={{ kind: "success", title: "Welcome back!" }}>
        <p>page</p>
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "Dismiss" }));
    expect(screen.queryByTestId("toast")).toBeNull();
  });

  it("takes room in the page's flow (never floating over it), and pointer events only on the toast itself", () => {
    render(
      <ToastProvider flash={{ kind: "success", title: "Hi" }}>
        <p>page</p>
      </ToastProvider>,
    );
    const region = screen.getByTestId("toast-region");
    expect(region.className).toContain("pointer-events-none");
    for (const element of [region, screen.getByTestId("toast")])
      expect(element.className).not.toMatch(/(^|\s)(fixed|absolute|sticky)(\s|$)/);
    expect(screen.getByTestId("toast").className).toContain("pointer-events-auto");
  });

  it("shows in the newest open dialog's slot instead of the page's region, and back in the region when it closes", () => {
    function Dialogs({ open }: { open: number }) {
      return (
        <>
          <Trigger message={{ kind: "info", title: "Note" }} />
          {open >= 1 ? (
            <div data-testid="first-dialog">
              <DialogToastSlot />
            </div>
          ) : null}
          {open >= 2 ? (
            <div data-testid="second-dialog">
              <DialogToastSlot />
            </div>
          ) : null}
        </>
      );
    }
    const { rerender } = render(
      <ToastProvider flash={null} region="placed">
        <ToastRegion />
        <Dialogs open={2} />
      </ToastProvider>,
    );
    fireEvent.click(screen.getByRole("button", { name: "show" }));
    expect(within(screen.getByTestId("second-dialog")).getByTestId("toast")).toHaveTextContent(
      "Note",
    );
    expect(screen.getAllByTestId("toast")).toHaveLength(1);
    rerender(
      <ToastProvider flash={null} region="placed">
        <ToastRegion />
        <Dialogs open={1} />
      </ToastProvider>,
    );
    expect(within(screen.getByTestId("first-dialog")).getByTestId("toast")).toBeInTheDocument();
    rerender(
      <ToastProvider flash={null} region="placed">
        <ToastRegion />
        <Dialogs open={0} />
      </ToastProvider>,
    );
    expect(within(screen.getByTestId("toast-region")).getByTestId("toast")).toHaveTextContent(
      "Note",
    );
    // The timer kept running through the moves.
    act(() => vi.advanceTimersByTime(TOAST_DURATION_MS));
    expect(screen.queryByTestId("toast")).toBeNull();
  });

  it("without JavaScript: the server renders the flash with a CSS-only close (a label ticking a checkbox)", () => {
    const html = renderToString(
      <ToastProvider flash={{ kind: "success", title: "Welcome!" }}>
        <p>page</p>
      </ToastProvider>,
    );
    const doc = new DOMParser().parseFromString(html, "text/html");
    const box = doc.querySelector<HTMLInputElement>("input#toast-dismiss[type=checkbox]");
    expect(box).not.toBeNull();
    expect(box!.className).toContain("peer");
    expect(doc.querySelector('label[for="toast-dismiss"]')).not.toBeNull();
    const toast = doc.querySelector('[data-testid="toast"]')!;
    expect(toast.textContent).toContain("Welcome!");
    expect(toast.className).toContain("peer-checked:hidden");
    expect(doc.querySelector("button")).toBeNull();
  });
});
