import { useCallback } from "react";
import { useToast } from "~/ui/toaster";
import {
  ApiError,
  LOGGED_OUT_MESSAGE,
  SIGN_IN_AGAIN_URL,
  SIGN_IN_DELAY_MS,
} from "~/features/studio/studio-api";

/**
 * A 401 anywhere on the dashboard shows 'Unauthorized' /
 * 'You are logged out. Logging in again...' and goes to sign in after 500 ms.
 * Answers whether it handled the error.
 */
export function useSignInAgain() {
  const toast = useToast();
  return useCallback(
    (error: unknown) => {
      if (!(error instanceof ApiError) || error.status !== 401) return false;
      toast({ kind: "error", ...LOGGED_OUT_MESSAGE });
      window.setTimeout(() => window.location.assign(SIGN_IN_AGAIN_URL), SIGN_IN_DELAY_MS);
      return true;
    },
    [toast],
  );
}
