/**
 * A counting semaphore with a bounded queue: at most `concurrency` tasks run at
 * once, at most `maxQueued` wait for a slot, and a task beyond that is refused
 * at once (GateFullError) instead of waiting without end.
 */
export class GateFullError extends Error {
  constructor(public readonly queued: number) {
    super("Too many tasks waiting");
    this.name = "GateFullError";
  }
}

export class BoundedGate {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(
    readonly concurrency: number,
    readonly maxQueued: number,
  ) {
    if (!Number.isInteger(concurrency) || concurrency < 1)
      throw new Error("concurrency must be a positive integer");
    if (!Number.isInteger(maxQueued) || maxQueued < 0)
      throw new Error("maxQueued must be a whole number");
  }

  /** Tasks running now. */
  get active(): number {
    return this.running;
  }

  /** Tasks waiting for a slot. */
  get queued(): number {
    return this.waiting.length;
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.concurrency) {
      this.running++;
    } else {
      if (this.waiting.length >= this.maxQueued) throw new GateFullError(this.waiting.length);
      // release() hands its slot straight to the first waiter, so `running` stays counted.
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  private release() {
    const next = this.waiting.shift();
    if (next) next();
    else this.running--;
  }
}
