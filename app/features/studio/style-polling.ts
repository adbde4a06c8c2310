import type { StylizedImageJson } from "~/features/studio/types";
import { STYLE_POLL_INTERVAL_MS, STYLE_POLL_MAX_ATTEMPTS } from "~/lib/styles";

/** The messages for a style that did not arrive. */
export const AI_PROCESSING_FAILED = "AI processing failed";
export const AI_PROCESSING_TIMED_OUT = "AI processing timed out";

export interface PollOptions {
  fetchImage: (id: string) => Promise<Pick<StylizedImageJson, "status" | "styledUrl" | "error">>;
  sleep?: (ms: number) => Promise<void>;
  intervalMs?: number;
  maxAttempts?: number;
  /** Stop early (e.g. the page went away). */
  signal?: AbortSignal;
}

/**
 * Polls a stylized image every 2 s, up to 30 times: resolves
 * when it is completed with its URL, throws 'AI processing failed' when it
 * failed and 'AI processing timed out' when the attempts run out. Any other
 * status means keep polling.
 */
export async function pollStylizedImage(id: string, options: PollOptions) {
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const attempts = options.maxAttempts ?? STYLE_POLL_MAX_ATTEMPTS;
  for (let attempt = 1; attempt <= attempts; attempt++) {
    await sleep(options.intervalMs ?? STYLE_POLL_INTERVAL_MS);
    options.signal?.throwIfAborted();
    const image = await options.fetchImage(id);
    if (image.status === "completed" && image.styledUrl) return image;
    if (image.status === "failed") throw new Error(AI_PROCESSING_FAILED);
  }
  throw new Error(AI_PROCESSING_TIMED_OUT);
}
