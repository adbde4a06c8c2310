// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { BetaSection } from "~/features/landing/components/beta-section";
import { formatCountdown, nextSpots } from "~/features/landing/components/beta-counters";

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
});

const advance = (ms: number) =>
  act(async () => {
    await vi.advanceTimersByTimeAsync(ms);
  });
const countdown = () => screen.getByTestId("beta-countdown").textContent;
const spots = () => Number(screen.getByTestId("beta-spots").querySelector(".tabular-nums")!.textContent);

describe("beta counter rules", () => {
  it("formats seconds as HH:MM:SS and never below zero", () => {
    expect(formatCountdown(23 * 3600 + 45 * 60 + 30)).toBe("23:45:30");
    expect(formatCountdown(59)).toBe("00:00:59");
    expect(formatCountdown(3600)).toBe("01:00:00");
    expect(formatCountdown(0)).toBe("00:00:00");
    expect(formatCountdown(-5)).toBe("00:00:00");
  });

  it("drops spots by 0, 1 or 2 for the random value and never below 50", () => {
    expect(nextSpots(127, 0)).toBe(127);
    expect(nextSpots(127, 0.33)).toBe(127);
    expect(nextSpots(127, 0.34)).toBe(126);
    expect(nextSpots(127, 0.66)).toBe(126);
    expect(nextSpots(127, 0.67)).toBe(125);
    expect(nextSpots(127, 0.999999)).toBe(125);
    expect(nextSpots(51, 0.99)).toBe(50);
    expect(nextSpots(50, 0.99)).toBe(50);
  });
});

describe("<BetaSection>", () => {
  it("starts at 23:45:30 with 127 of 200 spots, also in server HTML (no JavaScript)", () => {
    const html = renderToString(<BetaSection />);
    expect(html).toContain("23:45:30");
    expect(html).toMatch(/127<\/span><span[^>]*> of <!-- -->200/);
    expect(html).toContain('href="/api/login"');
    render(<BetaSection />);
    expect(countdown()).toBe("23:45:30");
    expect(spots()).toBe(127);
    expect(screen.getByRole("timer")).toBeInTheDocument();
  });

  it("counts down one second at a time", async () => {
    render(<BetaSection />);
    await advance(999);
    expect(countdown()).toBe("23:45:30");
    await advance(1);
    expect(countdown()).toBe("23:45:29");
    await advance(30_000);
    expect(countdown()).toBe("23:44:59");
  });

  it("stops at zero", async () => {
    render(<BetaSection />);
    await advance((23 * 3600 + 45 * 60 + 30) * 1000);
    expect(countdown()).toBe("00:00:00");
    await advance(10_000);
    expect(countdown()).toBe("00:00:00");
    // Only the spots timer is left running.
    expect(vi.getTimerCount()).toBe(1);
  });

  it("drops the spots by the random amount every 30 seconds", async () => {
    const draws = [0.9, 0.5, 0.1];
    let i = 0;
    const random = () => draws[i++ % draws.length];
    render(<BetaSection random={random} />);
    await advance(29_999);
    expect(spots()).toBe(127);
    await advance(1);
    expect(spots()).toBe(125); // 0.9 -> 2
    await advance(30_000);
    expect(spots()).toBe(124); // 0.5 -> 1
    await advance(30_000);
    expect(spots()).toBe(124); // 0.1 -> 0
  });

  it("never goes below 50 spots", async () => {
    render(<BetaSection random={() => 0.99} />);
    await advance(30_000 * 30);
    expect(spots()).toBe(67);
    await advance(30_000 * 100);
    expect(spots()).toBe(50);
  });
});
