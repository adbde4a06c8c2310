import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { redirectWithFlash } from "~/web/flash.server";
import { endWebSession } from "~/web/web-session.server";
import { isCrossSiteMutation } from "~/web/same-origin.server";

/** Sign Out is a POST form; a GET (a link, a prefetch) changes nothing. */
export const loader = () => redirect("/");

export async function action({ request }: ActionFunctionArgs) {
  if (isCrossSiteMutation(request)) {
    return redirectWithFlash("/", { kind: "error", title: "Logout failed", description: "Cross-site request refused" });
  }
  const clear = await endWebSession(request);
  return redirectWithFlash(
    "/",
    { kind: "success", title: "Logged out", description: "You have been logged out successfully" },
    { "Set-Cookie": clear },
  );
}
