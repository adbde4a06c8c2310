import { AsyncLocalStorage } from "node:async_hooks";

/**
 * What one render read of the request's personal state, as the readers
 * themselves report it (the session in auth.server.ts, the cart in
 * cart.server.ts, the saved listings in saved-listings.server.ts, the flash
 * message in flash.server.ts). The visitors' page cache keeps a page only when
 * its render reports that it looked for a session and found none, and found no
 * cart, saved listings or flash message either: whatever
 * the request looked like before the render, a page that was made for someone
 * is never kept.
 */
export interface RenderReport {
  /** The render asked who is signed in (read the session cookie). */
  sessionChecked: boolean;
  /** The personal state the render found in the request. */
  found: Set<PersonalState>;
}

export type PersonalState = "session" | "cart" | "saved" | "flash";

const currentRender = new AsyncLocalStorage<RenderReport>();

/** Runs `render` with a fresh report that the readers it calls fill in; answers both. */
export async function reportingRender<T>(
  render: () => Promise<T>,
): Promise<{ result: T; report: RenderReport }> {
  const report: RenderReport = { sessionChecked: false, found: new Set() };
  const result = await currentRender.run(report, render);
  return { result, report };
}

/** Called by a reader of personal state: what it read and whether the request carried any. Outside a reported render it does nothing. */
export function reportRead(state: PersonalState, found: boolean): void {
  const report = currentRender.getStore();
  if (!report) return;
  if (state === "session") report.sessionChecked = true;
  if (found) report.found.add(state);
}

/** The render looked for a session and found none, and found no other personal state. */
export function nobodySignedIn(report: RenderReport): boolean {
  return report.sessionChecked && report.found.size === 0;
}
