/**
 * Counts work running at once per key (e.g. per creator) in this process.
 * tryAcquire answers a release function, or null when the key already holds
 * `max` slots. Releasing twice is harmless.
 */
export class PerKeyLimiter {
  private readonly held = new Map<string, number>();

  tryAcquire(key: string, max: number): (() => void) | null {
    const current = this.held.get(key) ?? 0;
    if (current >= max) return null;
    this.held.set(key, current + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.held.get(key) ?? 1) - 1;
      if (left <= 0) this.held.delete(key);
      else this.held.set(key, left);
    };
  }

  /** Slots the key holds now. */
  count(key: string): number {
    return this.held.get(key) ?? 0;
  }
}
