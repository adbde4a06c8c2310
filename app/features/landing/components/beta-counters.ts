import { useEffect, useState } from "react";
import {
  BETA_SPOTS_FLOOR,
  BETA_SPOTS_INTERVAL_MS,
  BETA_SPOTS_MAX_DROP,
  BETA_SPOTS_REMAINING,
  BETA_SPOTS_TOTAL,
} from "~/features/landing/pricing-plans";

/**
 * The landing page's beta counters. The countdown runs to a fixed moment, so
 * a reload never restarts it: the end of the beta (BETA_ENDS_AT) when the
 * operator set one; otherwise, only with DEMO_FIGURES on, the next midnight UTC
 * (an illustrative deadline, labelled so), and without either there is no
 * countdown. Spots remaining are real with DEMO_FIGURES off (BETA_SPOTS minus
 * the invitations that made an account or still wait, betaSpotsLeft, the figure
 * the waitlist mail states too); with it on they are the spec's illustrative
 * figure that starts at 127 and drops by a random 0 to 2 every 30 seconds,
 * never below 50, labelled so.
 */

/** The beta's real figures, from the server; null parts are not configured. */
export interface BetaFigures {
  spots: { total: number; left: number } | null;
  endsAt: string | null;
}

/** "23:45:30", or "12d 04:05:06" from a day on. */
export function formatCountdown(totalSeconds: number): string {
  const { days, hh, mm, ss } = splitCountdown(totalSeconds);
  const clock = [hh, mm, ss].map((n) => String(n).padStart(2, "0")).join(":");
  return days > 0 ? `${days}d ${clock}` : clock;
}

export function splitCountdown(totalSeconds: number): {
  days: number;
  hh: number;
  mm: number;
  ss: number;
} {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return {
    days: Math.floor(seconds / 86_400),
    hh: Math.floor((seconds % 86_400) / 3600),
    mm: Math.floor((seconds % 3600) / 60),
    ss: seconds % 60,
  };
}

/** The next midnight UTC after `now`: the illustrative countdown's end, the same for every load that day. */
export function illustrativeDeadline(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** What the countdown runs to: the end of the beta when set, else (demo figures only) the illustrative deadline, else nothing. */
export function countdownTarget(endsAt: string | null, now: Date, demo = true): Date | null {
  if (endsAt) return new Date(endsAt);
  return demo ? illustrativeDeadline(now) : null;
}

/** "Public registration is closed until <year>": the beta's end's year, else the year after the current one. */
export function closedUntilYear(endsAt: string | null, now: Date): number {
  return endsAt ? new Date(endsAt).getUTCFullYear() : now.getUTCFullYear() + 1;
}

/** The illustrative spots after one 30-second step; `random` is in [0, 1) like Math.random. */
export function nextSpots(current: number, random: number): number {
  const drop = Math.min(BETA_SPOTS_MAX_DROP, Math.floor(random * (BETA_SPOTS_MAX_DROP + 1)));
  return Math.max(BETA_SPOTS_FLOOR, current - drop);
}

/**
 * The counters, from the moment the server rendered the page (so the first
 * render in the browser matches the server's HTML); then the countdown follows
 * the clock, and the illustrative spots drop.
 */
export function useBetaCounters({
  figures,
  renderedAt,
  random = Math.random,
  demo,
}: {
  figures: BetaFigures;
  renderedAt: string;
  random?: () => number;
  /** DEMO_FIGURES: the spec's illustrative countdown and spots (labelled) where no real figure is set. */
  demo: boolean;
}) {
  const target = countdownTarget(figures.endsAt, new Date(renderedAt), demo)?.getTime() ?? 0;
  const secondsAt = (nowMs: number) => Math.max(0, Math.floor((target - nowMs) / 1000));
  const [secondsLeft, setSecondsLeft] = useState(() => secondsAt(Date.parse(renderedAt)));
  const [illustrativeSpots, setIllustrativeSpots] = useState(BETA_SPOTS_REMAINING);

  const running = target > 0 && secondsLeft > 0;
  useEffect(() => {
    if (!running) return;
    const tick = () => setSecondsLeft(Math.max(0, Math.floor((target - Date.now()) / 1000)));
    const timer = window.setInterval(tick, 1000);
    return () => window.clearInterval(timer);
  }, [running, target]);

  const realSpots = demo ? null : figures.spots;
  useEffect(() => {
    if (!demo) return;
    const timer = window.setInterval(
      () => setIllustrativeSpots((s) => nextSpots(s, random())),
      BETA_SPOTS_INTERVAL_MS,
    );
    return () => window.clearInterval(timer);
  }, [random, demo]);

  return {
    /** Whether there is a countdown at all (BETA_ENDS_AT, or the demo's illustrative one). */
    hasCountdown: target > 0,
    secondsLeft,
    /** Null when there is no figure to show (DEMO_FIGURES off and no spots from the server). */
    spots: demo
      ? { left: illustrativeSpots, total: BETA_SPOTS_TOTAL, real: false }
      : realSpots
        ? { ...realSpots, real: true }
        : null,
  };
}
