// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cleanup, renderHook } from "@testing-library/react";
import { atPipeline, dashboardUrl } from "~/features/studio/workspace/dashboard-url";
import type { DashboardView } from "~/features/studio/types";
import { STYLE_POLL_INTERVAL_MS, STYLE_POLL_MAX_ATTEMPTS } from "~/lib/styles";

/** Remix's hooks as the dashboard's hook sees them: what it asks of the router, recorded. */
const router = vi.hoisted(() => ({
  navigate: vi.fn(),
  revalidate: vi.fn(),
  state: "idle" as "idle" | "loading",
  search: "",
}));
vi.mock("@remix-run/react", () => ({
  useNavigate: () => router.navigate,
  useRevalidator: () => ({ state: router.state, revalidate: router.revalidate }),
  useSearchParams: () => [new URLSearchParams(router.search)],
}));

const { useStyleInProgress } = await import("./use-style-in-progress");

type View = Pick<DashboardView, "step" | "image" | "pending">;
const waitingView = {
  step: "style",
  image: { id: "img-1" },
  pending: { id: "sty-1" },
} as unknown as View;
const REPLACE = { replace: true, preventScrollReset: true };

beforeEach(() => {
  vi.useFakeTimers();
  router.navigate.mockReset();
  router.revalidate.mockReset();
  router.state = "idle";
  router.search = "";
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

describe("useStyleInProgress: the dashboard waits for a style with JavaScript", () => {
  it("names a style found in progress in the URL, once, and not when the URL names it already", () => {
    const { rerender } = renderHook(({ view }) => useStyleInProgress(view, false), {
      initialProps: { view: waitingView },
    });
    expect(router.navigate).toHaveBeenCalledTimes(1);
    expect(router.navigate).toHaveBeenCalledWith(
      atPipeline(dashboardUrl({ image: "img-1", step: "style", pending: "sty-1" })),
      REPLACE,
    );

    router.navigate.mockReset();
    router.search = "step=style&pending=sty-1";
    rerender({ view: { ...waitingView } });
    expect(router.navigate).not.toHaveBeenCalled();
    // Off the style step, a style in progress elsewhere is not named.
    router.search = "";
    rerender({ view: { ...waitingView, step: "optimize" } as View });
    expect(router.navigate).not.toHaveBeenCalled();
  });

  it("reloads the page's data every interval while idle, then asks the loader to give up at the limit", () => {
    router.search = "step=style&pending=sty-1";
    const { rerender } = renderHook(() => useStyleInProgress(waitingView, true));
    vi.advanceTimersByTime(STYLE_POLL_INTERVAL_MS - 1);
    expect(router.revalidate).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(router.revalidate).toHaveBeenCalledTimes(1);

    // A reload still running (the page renders with the revalidator loading) is not stacked with another.
    router.state = "loading";
    rerender();
    vi.advanceTimersByTime(STYLE_POLL_INTERVAL_MS);
    expect(router.revalidate).toHaveBeenCalledTimes(1);
    router.state = "idle";
    rerender();

    vi.advanceTimersByTime(STYLE_POLL_INTERVAL_MS * (STYLE_POLL_MAX_ATTEMPTS - 3));
    expect(router.revalidate).toHaveBeenCalledTimes(STYLE_POLL_MAX_ATTEMPTS - 2);
    expect(router.navigate).not.toHaveBeenCalled();

    vi.advanceTimersByTime(STYLE_POLL_INTERVAL_MS);
    expect(router.revalidate).toHaveBeenCalledTimes(STYLE_POLL_MAX_ATTEMPTS - 2);
    expect(router.navigate).toHaveBeenCalledWith(
      atPipeline(
        dashboardUrl({
          image: "img-1",
          step: "style",
          pending: "sty-1",
          poll: STYLE_POLL_MAX_ATTEMPTS,
        }),
      ),
      REPLACE,
    );
    // And then it stops.
    vi.advanceTimersByTime(STYLE_POLL_INTERVAL_MS * 10);
    expect(router.revalidate).toHaveBeenCalledTimes(STYLE_POLL_MAX_ATTEMPTS - 2);
    expect(router.navigate).toHaveBeenCalledTimes(1);
  });

  it("does not poll when nothing is in progress, and stops when the page goes", () => {
    router.search = "step=style&pending=sty-1";
    renderHook(() => useStyleInProgress(waitingView, false));
    vi.advanceTimersByTime(STYLE_POLL_INTERVAL_MS * 5);
    expect(router.revalidate).not.toHaveBeenCalled();

    const { unmount } = renderHook(() => useStyleInProgress(waitingView, true));
    vi.advanceTimersByTime(STYLE_POLL_INTERVAL_MS);
    expect(router.revalidate).toHaveBeenCalledTimes(1);
    unmount();
    vi.advanceTimersByTime(STYLE_POLL_INTERVAL_MS * 5);
    expect(router.revalidate).toHaveBeenCalledTimes(1);
  });
});
