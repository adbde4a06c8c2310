import { useRevalidator } from "@remix-run/react";
import { useEffect, useRef } from "react";

export interface RevalidateWhileOptions {
  /** How often to look again, in ms. */
  intervalMs: number;
  /**
   * Give up on this tick: no look on it, the ticks stop and `onGiveUp` runs
   * (so the page's data is looked at `limit - 1` times). None: until `running` ends.
   */
  limit?: number;
  onGiveUp?: () => void;
  /**
   * What to look at instead of the page's data (a fetcher's load, a status
   * call) and whether it is still on its way; by default the page's loaders
   * are revalidated.
   */
  reload?: { run: () => void; busy: boolean };
  /** A new round (say, a new thing waited for) starts the ticks and the limit over. */
  round?: string;
}

/**
 * The one way a page waits for something that runs elsewhere (a style, an
 * export, a payment, a publication), with JavaScript: while `running`, every
 * `intervalMs` the page's data is revalidated, only when no revalidation (or
 * `reload`) is still on its way; it stops when `running` ends, when the page
 * goes, and at the optional `limit`. Without JavaScript the page's
 * <NoScriptRefresh> does the same by reloading.
 */
export function useRevalidateWhile(running: boolean, options: RevalidateWhileOptions): void {
  const revalidator = useRevalidator();
  const latest = useRef({ revalidator, options });
  latest.current = { revalidator, options };
  const { intervalMs, limit, round } = options;

  useEffect(() => {
    if (!running) return;
    let ticks = 0;
    const timer = window.setInterval(() => {
      ticks += 1;
      const { revalidator: now, options: current } = latest.current;
      if (limit !== undefined && ticks >= limit) {
        window.clearInterval(timer);
        current.onGiveUp?.();
        return;
      }
      if (current.reload) {
        if (!current.reload.busy) current.reload.run();
      } else if (now.state === "idle") now.revalidate();
    }, intervalMs);
    return () => window.clearInterval(timer);
  }, [running, intervalMs, limit, round]);
}
