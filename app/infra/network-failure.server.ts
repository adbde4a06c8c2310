/**
 * Why a request to another service never got an answer, in words a person
 * can act on, from the error `fetch` threw. undici says only "fetch failed"
 * and keeps the reason in `cause` (a system error code, or its own), and a
 * timeout arrives as an AbortSignal's `TimeoutError`.
 */
export function networkFailureReason(error: unknown): string {
  const codes: string[] = [];
  let name = "";
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    if (typeof current !== "object") break;
    const {
      code,
      name: errorName,
      cause,
    } = current as { code?: unknown; name?: unknown; cause?: unknown };
    if (typeof code === "string") codes.push(code);
    if (!name && typeof errorName === "string") name = errorName;
    current = cause;
  }
  if (name === "TimeoutError" || codes.some((code) => /TIMEOUT|ETIMEDOUT/.test(code)))
    return "it did not answer in time";
  if (codes.includes("ENOTFOUND") || codes.includes("EAI_AGAIN"))
    return "its address could not be found";
  if (codes.includes("ECONNREFUSED")) return "it refused the connection";
  if (codes.includes("ECONNRESET") || codes.includes("UND_ERR_SOCKET"))
    return "the connection was cut";
  if (codes.some((code) => code.startsWith("ERR_TLS") || code.includes("CERT")))
    return "its certificate could not be checked";
  return "the network failed on the way";
}
