import type { FlashMessage } from "~/lib/flash";
import { appCookie } from "~/web/cookie.server";
import { reportRead } from "~/web/render-report.server";

/**
 * Flash messages ride a signed cookie for exactly one response: the page after
 * a redirect renders them on the server, so they show without JavaScript too.
 */
function flashCookie() {
  // `__Host-flash` in production, `__flash` elsewhere.
  return appCookie("flash", { maxAge: 60 });
}

export async function flashHeader(message: FlashMessage): Promise<string> {
  return flashCookie().serialize(message);
}

/** Reads the pending flash message and the header that clears it. */
export async function takeFlash(
  request: Request,
): Promise<{ flash: FlashMessage | null; clear: string | null }> {
  const cookie = flashCookie();
  const value = await cookie.parse(request.headers.get("Cookie"));
  reportRead("flash", value !== null);
  if (!value || typeof value !== "object" || typeof value.title !== "string") {
    return { flash: null, clear: null };
  }
  return { flash: value as FlashMessage, clear: await cookie.serialize("", { maxAge: 0 }) };
}

export async function redirectWithFlash(
  url: string,
  message: FlashMessage,
  headers: HeadersInit = {},
) {
  const all = new Headers(headers);
  all.append("Set-Cookie", await flashHeader(message));
  all.set("Location", url);
  return new Response(null, { status: 302, headers: all });
}
