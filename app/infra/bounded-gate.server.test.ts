import { describe, expect, it } from "vitest";
import { BoundedGate, GateFullError } from "~/infra/bounded-gate.server";

/** A task that runs until the test lets it finish. */
function controllable() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

describe("BoundedGate", () => {
  it("runs at most `concurrency` tasks, queues up to `maxQueued` in order, and refuses the rest at once", async () => {
    const gate = new BoundedGate(2, 3);
    const started: number[] = [];
    let running = 0;
    let peak = 0;
    const tasks = Array.from({ length: 7 }, () => controllable());
    const outcomes = tasks.map((task, i) =>
      gate
        .run(async () => {
          started.push(i);
          running++;
          peak = Math.max(peak, running);
          await task.done;
          running--;
          return i;
        })
        .then(
          (value) => ({ ok: true as const, value }),
          (error: unknown) => ({ ok: false as const, error }),
        ),
    );
    await Promise.resolve();
    expect([gate.active, gate.queued]).toEqual([2, 3]);
    // The two beyond the queue are refused without waiting for anything to finish.
    const refused = await Promise.all(outcomes.slice(5));
    expect(refused.every((outcome) => !outcome.ok && outcome.error instanceof GateFullError)).toBe(
      true,
    );

    for (const task of tasks) task.finish();
    const results = await Promise.all(outcomes.slice(0, 5));
    expect(results).toEqual([0, 1, 2, 3, 4].map((value) => ({ ok: true, value })));
    expect(started).toEqual([0, 1, 2, 3, 4]);
    expect(peak).toBe(2);
    expect([gate.active, gate.queued]).toEqual([0, 0]);
  });

  it("frees the slot of a task that fails", async () => {
    const gate = new BoundedGate(1, 0);
    await expect(gate.run(() => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await gate.run(async () => "next")).toBe("next");
    expect(gate.active).toBe(0);
  });
});
