// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, render, renderHook } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";

/** Remix's revalidator as the hook sees it: what it is asked, recorded. */
const router = vi.hoisted(() => ({
  revalidate: vi.fn(),
  state: "idle" as "idle" | "loading",
}));
vi.mock("@remix-run/react", () => ({
  useRevalidator: () => ({ state: router.state, revalidate: router.revalidate }),
}));

const { useRevalidateWhile } = await import("./use-revalidate-while");
const { NoScriptRefresh } = await import("./no-script-refresh");

const EVERY = 2000;

beforeEach(() => {
  vi.useFakeTimers();
  router.revalidate.mockReset();
  router.state = "idle";
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("useRevalidateWhile: a page waits for something that runs elsewhere", () => {
  it("revalidates every interval while running and idle, never over a revalidation still running", () => {
    const { rerender } = renderHook(() => useRevalidateWhile(true, { intervalMs: EVERY }));
    vi.advanceTimersByTime(EVERY - 1);
    expect(router.revalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(router.revalidate).toHaveBeenCalledTimes(1);

    router.state = "loading";
    rerender();
    vi.advanceTimersByTime(EVERY * 3);
    expect(router.revalidate).toHaveBeenCalledTimes(1);

    router.state = "idle";
    rerender();
    vi.advanceTimersByTime(EVERY * 2);
    expect(router.revalidate).toHaveBeenCalledTimes(3);
  });

  it("does nothing while not running, and stops when the thing ends or the page goes", () => {
    const { rerender, unmount } = renderHook(
      ({ running }) => useRevalidateWhile(running, { intervalMs: EVERY }),
      { initialProps: { running: false } },
    );
    vi.advanceTimersByTime(EVERY * 5);
    expect(router.revalidate).not.toHaveBeenCalled();

    rerender({ running: true });
    vi.advanceTimersByTime(EVERY);
    expect(router.revalidate).toHaveBeenCalledTimes(1);
    rerender({ running: false });
    vi.advanceTimersByTime(EVERY * 5);
    expect(router.revalidate).toHaveBeenCalledTimes(1);

    rerender({ running: true });
    vi.advanceTimersByTime(EVERY);
    expect(router.revalidate).toHaveBeenCalledTimes(2);
    unmount();
    vi.advanceTimersByTime(EVERY * 5);
    expect(router.revalidate).toHaveBeenCalledTimes(2);
  });

  it("gives up on the limit-th tick (limit - 1 looks), calls onGiveUp once, and a new round starts over", () => {
    const onGiveUp = vi.fn();
    const { rerender } = renderHook(
      ({ round }) => useRevalidateWhile(true, { intervalMs: EVERY, limit: 4, onGiveUp, round }),
      { initialProps: { round: "a" } },
    );
    vi.advanceTimersByTime(EVERY * 3);
    expect(router.revalidate).toHaveBeenCalledTimes(3);
    expect(onGiveUp).not.toHaveBeenCalled();
    vi.advanceTimersByTime(EVERY);
    expect(router.revalidate).toHaveBeenCalledTimes(3);
    expect(onGiveUp).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(EVERY * 10);
    expect(router.revalidate).toHaveBeenCalledTimes(3);
    expect(onGiveUp).toHaveBeenCalledTimes(1);

    // The same round re-rendered does not start over; a new one does.
    rerender({ round: "a" });
    vi.advanceTimersByTime(EVERY * 2);
    expect(router.revalidate).toHaveBeenCalledTimes(3);
    rerender({ round: "b" });
    vi.advanceTimersByTime(EVERY * 4);
    expect(router.revalidate).toHaveBeenCalledTimes(6);
    expect(onGiveUp).toHaveBeenCalledTimes(2);
  });

  it("runs `reload` instead of revalidating, only when it is not busy, with its latest values", () => {
    const first = vi.fn();
    const second = vi.fn();
    const { rerender } = renderHook(
      ({ run, busy }) => useRevalidateWhile(true, { intervalMs: EVERY, reload: { run, busy } }),
      { initialProps: { run: first, busy: false } },
    );
    vi.advanceTimersByTime(EVERY);
    expect(first).toHaveBeenCalledTimes(1);
    rerender({ run: first, busy: true });
    vi.advanceTimersByTime(EVERY * 2);
    expect(first).toHaveBeenCalledTimes(1);
    rerender({ run: second, busy: false });
    vi.advanceTimersByTime(EVERY);
    expect(first).toHaveBeenCalledTimes(1);
    expect(second).toHaveBeenCalledTimes(1);
    expect(router.revalidate).not.toHaveBeenCalled();
  });
});

describe("NoScriptRefresh: the page reloads itself without JavaScript", () => {
  it("renders a meta refresh inside <noscript>, to the page itself or to a URL", () => {
    expect(renderToStaticMarkup(<NoScriptRefresh seconds={3} />)).toBe(
      '<noscript><meta http-equiv="refresh" content="3"/></noscript>',
    );
    expect(
      renderToStaticMarkup(
        <NoScriptRefresh seconds={2} url="/dashboard?step=style&poll=1#pipeline" />,
      ),
    ).toBe(
      '<noscript><meta http-equiv="refresh" content="2;url=/dashboard?step=style&amp;poll=1#pipeline"/></noscript>',
    );
  });

  it("does not refresh a page with JavaScript (no live meta element in the document)", () => {
    const { container } = render(<NoScriptRefresh seconds={1} url="/" />);
    expect(container.querySelector("noscript")).not.toBeNull();
    expect(document.head.querySelector('meta[http-equiv="refresh"]')).toBeNull();
  });
});
