/**
 * What the dashboard's script and its screens share about its calls: a
 * refusal as an ApiError carrying the status and the server's own message,
 * and where a signed-out creator goes to sign in again.
 */
export class ApiError extends Error {
  constructor(
    public readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/** Where a signed-out visitor goes to sign in again, coming back to the dashboard. */
export const SIGN_IN_AGAIN_URL = "/api/login?redirectTo=%2Fdashboard";
/** A 401 on the dashboard says so, then goes to sign in after 500 ms. */
export const LOGGED_OUT_MESSAGE = {
  title: "Unauthorized",
  description: "You are logged out. Logging in again...",
};
export const SIGN_IN_DELAY_MS = 500;
