import crypto from "node:crypto";
import { describe, expect, it, vi } from "vitest";
import { HttpError } from "~/infra/errors.server";
import {
  HASH_CONCURRENCY,
  HASH_QUEUE_LIMIT,
  hashPassword,
  verifyPassword,
} from "~/features/accounts/passwords/passwords.server";

/** Watches how many scrypt runs are in flight at once, calling the real one. */
function watchScrypt() {
  const real = crypto.scrypt as (...args: unknown[]) => void;
  const stats = { calls: 0, running: 0, peak: 0 };
  vi.spyOn(crypto, "scrypt").mockImplementation(((...args: unknown[]) => {
    stats.calls++;
    stats.running++;
    stats.peak = Math.max(stats.peak, stats.running);
    const callback = args.pop() as (error: Error | null, key: Buffer) => void;
    real(...args, (error: Error | null, key: Buffer) => {
      stats.running--;
      callback(error, key);
    });
  }) as unknown as typeof crypto.scrypt);
  return stats;
}

describe("password hashing", () => {
  it("hashes and verifies", async () => {
    const stored = await hashPassword("correct-horse");
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(await verifyPassword("correct-horse", stored)).toBe(true);
    expect(await verifyPassword("wrong-horse", stored)).toBe(false);
  });

  it("never runs more than HASH_CONCURRENCY hashes at once", async () => {
    const stored = await hashPassword("correct-horse");
    const stats = watchScrypt();
    const count = HASH_CONCURRENCY * 3 + 2;
    const results = await Promise.all([
      ...Array.from({ length: count }, () => verifyPassword("correct-horse", stored)),
      hashPassword("another-one"),
    ]);
    expect(results.slice(0, count).every(Boolean)).toBe(true);
    expect(stats.calls).toBe(count + 1);
    expect(stats.peak).toBe(HASH_CONCURRENCY);
  });

  it("refuses hashes beyond the bounded queue with 503 and Retry-After instead of queueing them", async () => {
    const stored = await hashPassword("correct-horse");
    const stats = watchScrypt();
    const extra = 3;
    const outcomes = await Promise.allSettled(
      Array.from({ length: HASH_CONCURRENCY + HASH_QUEUE_LIMIT + extra }, () =>
        verifyPassword("correct-horse", stored),
      ),
    );
    const refused = outcomes.filter((outcome) => outcome.status === "rejected");
    expect(refused).toHaveLength(extra);
    for (const outcome of refused) {
      const error = (outcome as PromiseRejectedResult).reason as HttpError;
      expect(error).toBeInstanceOf(HttpError);
      expect(error.status).toBe(503);
      expect(Number(error.headers?.["Retry-After"])).toBeGreaterThan(0);
    }
    expect(stats.calls).toBe(HASH_CONCURRENCY + HASH_QUEUE_LIMIT);
    expect(stats.peak).toBe(HASH_CONCURRENCY);
    // Once the queue has drained, hashing works again.
    expect(await verifyPassword("correct-horse", stored)).toBe(true);
  });
});
