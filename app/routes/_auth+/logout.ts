import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { redirectWithFlash } from "~/web/flash.server";
import { endWebSession } from "~/web/web-session.server";

/** Sign Out is a POST form; a GET (a link, a prefetch) changes nothing. */
export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  const clear = await endWebSession(request);
  return redirectWithFlash(
    "/",
    { kind: "success", title: "Logged out", description: "You have been logged out successfully" },
    { "Set-Cookie": clear },
  );
}
