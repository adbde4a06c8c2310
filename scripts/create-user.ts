// npm run user:create -- --email ada@example.com --first Ada --last Lovelace [--password secret]
// Without --password a random one is generated and printed once.
import crypto from "node:crypto";
import { registerSchema } from "~/features/accounts/schemas";
import { getDb, migrateToLatest } from "~/infra/db.server";
import { createUser } from "~/features/accounts/users.server";
import { readArgs, runCommand } from "./cli-args";

await runCommand(async () => {
  const { options } = readArgs();
  const generated = options.password ? null : crypto.randomBytes(12).toString("base64url");
  const parsed = registerSchema.safeParse({
    email: options.email,
    password: options.password ?? generated,
    firstName: options.first,
    lastName: options.last,
  });
  if (!parsed.success) {
    throw new Error(
      "Usage: npm run user:create -- --email <email> --first <first name> --last <last name> [--password <password>]\n" +
        parsed.error.issues
          .map((issue) => `  ${issue.path.join(".")}: ${issue.message}`)
          .join("\n"),
    );
  }
  const db = getDb();
  await migrateToLatest(db);
  const user = await createUser(db, parsed.data);
  console.log(`Created ${user.email} (id ${user.id}).`);
  if (generated) console.log(`Password (shown once): ${generated}`);
});
