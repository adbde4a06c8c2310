// npm run migrate: applies pending database migrations (the server also does this at start).
import { getDb, migrateToLatest } from "~/infra/db.server";
import { runCommand } from "./cli-args";

await runCommand(async () => {
  const applied = await migrateToLatest(getDb());
  console.log(applied.length ? `Applied: ${applied.join(", ")}` : "The database is up to date.");
});
