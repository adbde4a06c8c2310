// npm run seed: the super admin and the demo data for local use.
import { ensureSuperAdmin, seedDemo } from "~/boot/seed.server";
import { getConfig } from "~/infra/config.server";
import { getDb, migrateToLatest } from "~/infra/db.server";
import { runCommand } from "./cli-args";

await runCommand(async () => {
  const db = getDb();
  await migrateToLatest(db);
  await ensureSuperAdmin(db, getConfig());
  await seedDemo(db);
  console.log("Seed complete.");
});
