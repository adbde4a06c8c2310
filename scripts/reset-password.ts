// npm run user:reset-password -- <email> [--password secret]
// Sets a new password (random and printed once without --password) and signs the user out everywhere.
import crypto from "node:crypto";
import { getDb, migrateToLatest } from "~/infra/db.server";
import { revokeAllCredentials } from "~/features/accounts/sessions/sessions.server";
import { findUserByEmail, setPassword } from "~/features/accounts/users.server";
import { readArgs, runCommand } from "./cli-args";

await runCommand(async () => {
  const { options, positionals } = readArgs();
  const email = positionals[0] ?? options.email;
  if (!email)
    throw new Error("Usage: npm run user:reset-password -- <email> [--password <password>]");
  const password = options.password ?? crypto.randomBytes(12).toString("base64url");
  const db = getDb();
  await migrateToLatest(db);
  const user = await findUserByEmail(db, email);
  if (!user) throw new Error(`No user with the email ${email}.`);
  // setPassword refuses a password under 8 characters or a common one, with a message.
  await setPassword(db, user.id, password);
  await revokeAllCredentials(db, user.id);
  console.log(`Password reset for ${user.email}; their sessions and tokens were ended.`);
  if (!options.password) console.log(`New password (shown once): ${password}`);
});
