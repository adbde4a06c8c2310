import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { DEMO_CREATOR } from "#db/demo-account";
import { findUserByEmail } from "~/features/accounts/users.server";

/**
 * What the /token-test developer page fills its sign-in form with. Only a
 * development server helps: the local demo account when it was seeded
 * (`npm start`), else the admin's email without a password.
 * Anywhere else (production, tests) the form starts empty, so no account name
 * or password is ever put in a page a stranger can load.
 */
export async function tokenTestPrefill(db: DB, config: Pick<Config, "NODE_ENV" | "ADMIN_EMAIL">) {
  if (config.NODE_ENV !== "development") return { email: "", key: "" };
  const demo = await findUserByEmail(db, DEMO_CREATOR.email);
  return demo
    ? { email: DEMO_CREATOR.email, key: DEMO_CREATOR.password }
    : { email: config.ADMIN_EMAIL, key: "" };
}
