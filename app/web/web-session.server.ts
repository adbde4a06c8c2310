import type { UserRow } from "#db/schema";
import { createWebSession, deleteWebSession } from "~/features/accounts/sessions/sessions.server";
import { getConfig } from "~/infra/config.server";
import { getDb } from "~/infra/db.server";
import { readSessionSecret, sessionCookie } from "~/web/auth.server";

/** Starts a web session for a signed-in user, noting the browser it was made from; answers the Set-Cookie header. */
export async function startWebSession(user: UserRow, request: Request): Promise<string> {
  const { secret } = await createWebSession(
    getDb(),
    user.id,
    getConfig().SESSION_DAYS,
    new Date(),
    request.headers.get("User-Agent"),
  );
  return sessionCookie().serialize(secret);
}

/** Ends the request's web session (if any); answers the Set-Cookie header that clears it. */
export async function endWebSession(request: Request): Promise<string> {
  const secret = await readSessionSecret(request);
  if (secret) await deleteWebSession(getDb(), secret);
  return sessionCookie().serialize("", { maxAge: 0 });
}
