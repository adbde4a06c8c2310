import { useSyncExternalStore } from "react";

const subscribe = () => () => {};

/**
 * False on the server and while the page hydrates, true in every client render
 * after that (including components first mounted after hydration, which need
 * no fallback frame). Screens render their no-JavaScript form first (a plain
 * page, a link, a checkbox) and swap in the enhanced one (a dialog, a switch,
 * polling) once JavaScript really runs, without a hydration mismatch.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
