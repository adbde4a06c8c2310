import { useEffect, useRef, useState } from "react";
import {
  BETA_COUNTDOWN_START_SECONDS,
  BETA_SPOTS_FLOOR,
  BETA_SPOTS_INTERVAL_MS,
  BETA_SPOTS_MAX_DROP,
  BETA_SPOTS_REMAINING,
} from "~/features/landing/pricing-plans";

/**
 * The landing page's cosmetic beta counters: a countdown from
 * 23:45:30 to zero, one step a second, and spots remaining from 127 that drop
 * by a random 0 to 2 every 30 seconds, never below 50. They are static claims,
 * not server data: every visitor starts from the same figures.
 */

/** "23:45:30" */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const hh = Math.floor(seconds / 3600);
  const mm = Math.floor((seconds % 3600) / 60);
  const ss = seconds % 60;
  return [hh, mm, ss].map((n) => String(n).padStart(2, "0")).join(":");
}

/** The spots after one 30-second step; `random` is in [0, 1) like Math.random. */
export function nextSpots(current: number, random: number): number {
  const drop = Math.min(BETA_SPOTS_MAX_DROP, Math.floor(random * (BETA_SPOTS_MAX_DROP + 1)));
  return Math.max(BETA_SPOTS_FLOOR, current - drop);
}

export function useBetaCounters(random: () => number = Math.random) {
  const [secondsLeft, setSecondsLeft] = useState(BETA_COUNTDOWN_START_SECONDS);
  const [spotsLeft, setSpotsLeft] = useState(BETA_SPOTS_REMAINING);

  // Counted from when the page started, so a throttled background tab stays right.
  const startedAt = useRef<number | null>(null);
  const running = secondsLeft > 0;
  useEffect(() => {
    if (!running) return;
    startedAt.current ??= Date.now();
    const timer = window.setInterval(() => {
      const elapsed = Math.floor((Date.now() - startedAt.current!) / 1000);
      setSecondsLeft(Math.max(0, BETA_COUNTDOWN_START_SECONDS - elapsed));
    }, 1000);
    return () => window.clearInterval(timer);
  }, [running]);

  useEffect(() => {
    const timer = window.setInterval(() => setSpotsLeft((s) => nextSpots(s, random())), BETA_SPOTS_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [random]);

  return { secondsLeft, spotsLeft };
}
