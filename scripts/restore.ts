// npm run restore -- <backup folder> [--force]
// Restores into DATA_DIR. Stop the server first when replacing a live data directory.
// With DATABASE_URL (PostgreSQL) it restores the files and the app secret only,
// and prints the command that restores the database.
import path from "node:path";
import { restoreDataDir, restoreFilesOnly } from "~/infra/backup.server";
import { isPostgresUrl } from "~/infra/db.server";
import { readArgs, runCommand } from "./cli-args";

await runCommand(async () => {
  const { options, positionals } = readArgs(
    process.argv.slice(2).map((a) => (a === "--force" ? "--force=1" : a)),
  );
  if (!positionals[0]) throw new Error("Usage: npm run restore -- <backup folder> [--force]");
  const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
  const backupDir = path.resolve(positionals[0]);
  const force = options.force === "1";
  if (isPostgresUrl(process.env.DATABASE_URL ?? "")) {
    const { databaseStep } = await restoreFilesOnly(backupDir, dataDir, { force });
    console.log(`Restored the files and the app secret of ${positionals[0]} into ${dataDir}.`);
    console.log(databaseStep);
    return;
  }
  await restoreDataDir(backupDir, dataDir, { force });
  console.log(`Restored ${positionals[0]} into ${dataDir}`);
});
