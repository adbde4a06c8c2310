import type { FlashMessage } from "~/lib/flash";
import { styleName } from "~/lib/styles";

/** What the creator is told when a style they waited for ends: made, failed, or never came. */

export const STYLE_FAILED_TITLE = "Generation Failed";
export const AI_PROCESSING_FAILED = "AI processing failed";
export const AI_PROCESSING_TIMED_OUT = "AI processing timed out";

export function styleReadyToast(style: string): FlashMessage {
  return {
    kind: "success",
    title: "AI Style Generated!",
    description: `Your ${styleName(style)} transformation is complete.`,
  };
}

export const STYLE_FAILED_TOAST: FlashMessage = {
  kind: "error",
  title: STYLE_FAILED_TITLE,
  description: AI_PROCESSING_FAILED,
};

export const STYLE_TIMED_OUT_TOAST: FlashMessage = {
  kind: "error",
  title: STYLE_FAILED_TITLE,
  description: AI_PROCESSING_TIMED_OUT,
};
