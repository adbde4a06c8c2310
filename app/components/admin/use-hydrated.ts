import { useEffect, useState } from "react";

/**
 * False on the server and during hydration, true after: lets a screen render a
 * plain-HTML fallback that works without JavaScript and swap in the scripted
 * widget once the page is hydrated (without a hydration mismatch).
 */
export function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}
