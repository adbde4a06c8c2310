import crypto from "node:crypto";
import type { DB } from "~/server/db.server";
import type { Config } from "~/server/config.server";
import { SUPER_ADMIN_ID } from "~/lib/accounts";
import { createUser, findUserByEmail, findUserById } from "~/services/users.server";

export const DEMO_CREATOR = {
  email: "demo@selfie.studio",
  password: "demo-creator",
  firstName: "Dana",
  lastName: "Demo",
} as const;

/**
 * The super admin (id `super-admin`) exists from the first start. Without
 * ADMIN_PASSWORD a password is generated and printed once; it is never stored
 * in plain text.
 */
export async function ensureSuperAdmin(
  db: DB,
  config: Pick<Config, "ADMIN_EMAIL" | "ADMIN_PASSWORD">,
  log: (line: string) => void = console.log,
) {
  if (await findUserById(db, SUPER_ADMIN_ID)) return { created: false as const };
  const password = config.ADMIN_PASSWORD ?? crypto.randomBytes(12).toString("base64url");
  await createUser(db, {
    id: SUPER_ADMIN_ID,
    email: config.ADMIN_EMAIL,
    password,
    firstName: "Super",
    lastName: "Admin",
  });
  if (!config.ADMIN_PASSWORD) {
    log(
      [
        "",
        "  Super admin created.",
        `    email:    ${config.ADMIN_EMAIL}`,
        `    password: ${password}`,
        "  This password is shown once. Change it with: npm run user:reset-password -- <email>",
        "",
      ].join("\n"),
    );
  } else {
    log(`Super admin created: ${config.ADMIN_EMAIL} (password from ADMIN_PASSWORD).`);
  }
  return { created: true as const };
}

/** Demo data for local use: a creator account with a known password. */
export async function seedDemo(db: DB, log: (line: string) => void = console.log) {
  if (await findUserByEmail(db, DEMO_CREATOR.email)) return;
  await createUser(db, DEMO_CREATOR);
  log(`Demo creator created: ${DEMO_CREATOR.email} / ${DEMO_CREATOR.password}`);
}
