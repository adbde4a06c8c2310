/**
 * A styling failure with a sentence a creator can read. `retryable` says
 * whether trying the same job again later may succeed: false for model errors
 * and unsafe-content flags, true for timeouts, network trouble and 5xx.
 */
export class StyleEngineError extends Error {
  constructor(
    message: string,
    public readonly retryable: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "StyleEngineError";
  }
}
