import { useEffect, useState } from "react";

/**
 * False on the server and during hydration, true once the browser has run the
 * app: screens render their no-JS form (a plain page, a link) first and switch
 * to the enhanced one (a dialog) only when JavaScript is really there.
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
