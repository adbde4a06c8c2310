import type { UserRow } from "#db/schema";
import type { CallContext } from "~/infra/call-context.server";
import { createApiToken, toPublicUser } from "~/features/accounts/lends.server";
import { jsonResponse } from "~/web/http.server";

/**
 * The API's answer to a sign-in or a registration: a new bearer token for the
 * user (valid TOKEN_DAYS) and the user as clients see it. The screens start a
 * cookie session instead (web-session.server.ts).
 */
export async function tokenSessionResponse(
  user: UserRow,
  ctx: CallContext,
  status = 200,
): Promise<Response> {
  const { token } = await createApiToken(
    ctx.db,
    user.id,
    ctx.config.TOKEN_DAYS,
    ctx.now,
    ctx.userAgent,
  );
  return jsonResponse({ token, user: toPublicUser(user) }, { status });
}
