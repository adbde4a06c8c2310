import { takeFlash } from "~/web/flash.server";
import { cookiesFrom, makeRequest } from "#tests/setup/requests";

/** The flash message a redirect carries (the root loader would render it on the next page). */
export async function flashOf(response: Response) {
  return (await takeFlash(makeRequest("/", { cookie: cookiesFrom(response) }))).flash;
}
