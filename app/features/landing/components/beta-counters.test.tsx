// @vitest-environment jsdom
import "@testing-library/jest-dom/vitest";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, render, screen } from "@testing-library/react";
import { renderToString } from "react-dom/server";
import { BetaSection } from "~/features/landing/components/beta-section";
import {
  closedUntilYear,
  formatCountdown,
  illustrativeDeadline,
  nextSpots,
} from "~/features/landing/components/beta-counters";

/** 00:14:30 UTC: 23:45:30 before the next midnight, the spec's starting figure. */
const RENDERED_AT = "2026-11-26T00:14:30.000Z";
beforeEach(() => {
  vi.useFakeTimers();
  vi.setSystemTime(new Date(RENDERED_AT));
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
const spots = () =>
  Number(screen.getByTestId("beta-spots").querySelector(".tabular-nums")!.textContent);

describe("beta counter rules", () => {
  it("formats seconds as HH:MM:SS and never below zero", () => {
    expect(formatCountdown(23 * 3600 + 45 * 60 + 30)).toBe("23:45:30");
    expect(formatCountdown(59)).toBe("00:00:59");
    expect(formatCountdown(3600)).toBe("01:00:00");
    expect(formatCountdown(0)).toBe("00:00:00");
    expect(formatCountdown(-5)).toBe("00:00:00");
    expect(formatCountdown(5 * 86_400 + 3661)).toBe("5d 01:01:01");
  });

  it("the illustrative countdown runs to the next midnight UTC; 'closed until' is the beta's end's year, else next year", () => {
    expect(illustrativeDeadline(new Date("2026-11-26T00:14:30Z")).toISOString()).toBe(
      "2026-11-27T00:00:00.000Z",
    );
    expect(illustrativeDeadline(new Date("2026-12-31T23:59:59Z")).toISOString()).toBe(
      "2027-01-01T00:00:00.000Z",
    );
    expect(closedUntilYear("2028-03-01T00:00:00.000Z", new Date("2026-11-26T00:00:00Z"))).toBe(
      2028,
    );
    expect(closedUntilYear(null, new Date("2026-11-26T00:00:00Z"))).toBe(2027);
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
  it("with DEMO_FIGURES on and without settings: starts at the time left to midnight UTC with 127 of 200 spots, both labelled illustrative beside them, also in server HTML", () => {
    const html = renderToString(<BetaSection demo renderedAt={RENDERED_AT} />);
    expect(html).toContain("23:45:30");
    expect(html).toMatch(/127<\/span><span[^>]*> of <!-- -->200/);
    // Registration is closed: the button leads to the waitlist, and the year follows the date.
    expect(html).toContain('href="/auth?tab=register#waitlist"');
    expect(html).toContain("closed until 2027");
    render(<BetaSection demo renderedAt={RENDERED_AT} />);
    expect(countdown()).toBe("23:45:30");
    expect(spots()).toBe(127);
    expect(screen.getByRole("timer")).toBeInTheDocument();
    expect(screen.getAllByTestId("illustrative")).toHaveLength(2);
    expect(
      screen.getByText("Offer ends in").querySelector("[data-testid=illustrative]"),
    ).toHaveTextContent("Illustrative");
    expect(
      screen.getByText("Spots remaining").querySelector("[data-testid=illustrative]"),
    ).toHaveTextContent("Illustrative");
    expect(screen.getByTestId("beta-countdown-note")).toHaveTextContent(
      "Illustrative: it counts to midnight UTC, not to a real deadline.",
    );
  });

  it("does not restart on a reload: a page rendered 10 seconds later shows 10 seconds less", () => {
    render(<BetaSection demo renderedAt="2026-11-26T00:14:40.000Z" />);
    expect(countdown()).toBe("23:45:20");
  });

  it("with DEMO_FIGURES off, counts down to BETA_ENDS_AT, says so, and names its year; real spots from BETA_SPOTS carry no illustrative label and do not move", async () => {
    const figures = { endsAt: "2026-12-01T00:00:00.000Z", spots: { total: 20, left: 7 } };
    render(
      <BetaSection
        demo={false}
        renderedAt={RENDERED_AT}
        figures={figures}
        registrationOpen={false}
      />,
    );
    expect(countdown()).toBe("4d 23:45:30");
    expect(screen.getByTestId("beta-countdown-note")).toHaveTextContent(
      "Counts down to the end of the beta, December 1, 2026.",
    );
    expect(screen.getByTestId("beta-registration")).toHaveTextContent("closed until 2026");
    expect(spots()).toBe(7);
    expect(screen.getByTestId("beta-spots")).toHaveTextContent("7 of 20");
    expect(screen.getByTestId("beta-spots-note")).toHaveTextContent(
      "13 spots are taken by invitations sent.",
    );
    expect(screen.queryByTestId("illustrative")).toBeNull();
    await advance(30_000 * 10);
    expect(spots()).toBe(7);
    expect(countdown()).toBe("4d 23:40:30");
  });

  it("with DEMO_FIGURES off and no BETA_ENDS_AT: no countdown, no deadline, only the real spots left", async () => {
    const figures = { endsAt: null, spots: { total: 200, left: 188 } };
    const html = renderToString(
      <BetaSection demo={false} renderedAt={RENDERED_AT} figures={figures} />,
    );
    expect(html).not.toContain("23:45:30");
    render(<BetaSection demo={false} renderedAt={RENDERED_AT} figures={figures} />);
    expect(screen.queryByRole("timer")).toBeNull();
    expect(screen.queryByTestId("beta-countdown")).toBeNull();
    expect(screen.queryByText(/closes soon|Offer ends/)).toBeNull();
    expect(screen.getByTestId("beta-registration")).toHaveTextContent(
      "Public registration is closed: join the waitlist for an invitation.",
    );
    expect(screen.getByTestId("beta-spots")).toHaveTextContent("188 of 200");
    expect(screen.getByTestId("beta-spots-note")).toHaveTextContent(
      "12 spots are taken by invitations sent.",
    );
    expect(screen.queryByTestId("illustrative")).toBeNull();
    await advance(30_000 * 10);
    expect(spots()).toBe(188);
  });

  it("leads to sign-in while registration is open", () => {
    render(<BetaSection demo renderedAt={RENDERED_AT} registrationOpen />);
    expect(screen.getByRole("link", { name: "Claim Your Beta Spot" })).toHaveAttribute(
      "href",
      "/api/login",
    );
  });

  it("counts down one second at a time", async () => {
    render(<BetaSection demo renderedAt={RENDERED_AT} />);
    await advance(999);
    expect(countdown()).toBe("23:45:30");
    await advance(1);
    expect(countdown()).toBe("23:45:29");
    await advance(30_000);
    expect(countdown()).toBe("23:44:59");
  });

  it("stops at zero", async () => {
    render(<BetaSection demo renderedAt={RENDERED_AT} />);
    await advance((23 * 3600 + 45 * 60 + 30) * 1000);
    expect(countdown()).toBe("00:00:00");
    await advance(10_000);
    expect(countdown()).toBe("00:00:00");
    // Only the spots timer is left running.
    expect(vi.getTimerCount()).toBe(1);
  });

  it("drops the illustrative spots by the random amount every 30 seconds", async () => {
    const draws = [0.9, 0.5, 0.1];
    let i = 0;
    const random = () => draws[i++ % draws.length];
    render(<BetaSection demo renderedAt={RENDERED_AT} random={random} />);
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
    render(<BetaSection demo renderedAt={RENDERED_AT} random={() => 0.99} />);
    await advance(30_000 * 30);
    expect(spots()).toBe(67);
    await advance(30_000 * 100);
    expect(spots()).toBe(50);
  });
});
