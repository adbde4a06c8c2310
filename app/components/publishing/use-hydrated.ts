import { useEffect, useState } from "react";

/**
 * False on the server and during hydration, true once the browser runs the
 * app: the publishing screens render their no-JS form first and add the
 * enhancements (dialogs, popups, polling) only when JavaScript is really there.
 */
let hydrated = false;

export function useHydrated(): boolean {
  const [isHydrated, setHydrated] = useState(hydrated);
  useEffect(() => {
    hydrated = true;
    setHydrated(true);
  }, []);
  return isHydrated;
}
