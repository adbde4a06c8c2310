import crypto from "node:crypto";
import { getDb } from "~/infra/db.server";
import { createUser, findUserById } from "~/features/accounts/users.server";
import { getConfig } from "~/infra/config.server";
import { currentFaceConsent, recordFaceConsent } from "~/features/privacy/public.server";
import { createApiToken, createWebSession } from "~/features/accounts/sessions/sessions.server";
import { sessionCookie } from "~/web/auth.server";
import { SUPER_ADMIN_ID } from "~/lib/accounts";

export const TEST_PASSWORD = "correct-horse";

/**
 * A user in the test database, with a bearer token and a session cookie ready
 * to use. They have agreed to face processing (to the text of the engine the
 * test configuration styles with now, so they can style) unless `faceConsent: false`.
 */
export async function createTestUser(
  overrides: {
    id?: string;
    email?: string;
    firstName?: string;
    lastName?: string;
    faceConsent?: boolean;
  } = {},
) {
  const db = getDb();
  const created = await createUser(db, {
    id: overrides.id,
    email: overrides.email ?? `user-${crypto.randomBytes(4).toString("hex")}@example.com`,
    password: TEST_PASSWORD,
    firstName: overrides.firstName ?? "Test",
    lastName: overrides.lastName ?? "User",
  });
  const user =
    overrides.faceConsent === false
      ? created
      : await recordFaceConsent(db, created.id, new Date(), currentFaceConsent(getConfig()));
  const { token } = await createApiToken(db, user.id, 30);
  const { secret } = await createWebSession(db, user.id, 30);
  const cookie = (await sessionCookie().serialize(secret)).split(";")[0];
  return { user, token, cookie };
}

export function createTestAdmin() {
  return createTestUser({
    id: SUPER_ADMIN_ID,
    email: "root@example.com",
    firstName: "Super",
    lastName: "Admin",
  });
}

/** The password hash stored for the user now (to show a refused change left it alone). */
export async function storedPasswordHash(userId: string): Promise<string> {
  const user = await findUserById(getDb(), userId);
  if (!user) throw new Error(`No user ${userId}`);
  return user.password_hash;
}
