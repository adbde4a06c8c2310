// npm run backup -- [destination]   (default: ./backups/<timestamp>)
// SQLite: safe while the server runs (SQLite's online backup API, then the files).
// PostgreSQL (DATABASE_URL): copies the files and the app secret only, and says
// how to back up the database (the provider's backups, or pg_dump).
import path from "node:path";
import { backupDataDir, backupFilesOnly, postgresBackupNote } from "~/infra/backup.server";
import { getConfig } from "~/infra/config.server";
import { readArgs, runCommand } from "./cli-args";

await runCommand(async () => {
  const { positionals } = readArgs();
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const destination = path.resolve(positionals[0] ?? path.join("backups", stamp));
  const config = getConfig();
  if (config.DATABASE_URL) {
    const { files } = await backupFilesOnly(config.dataDir, destination);
    console.log(`Backed up ${files} files and the app secret to ${destination}.`);
    console.log(postgresBackupNote().join("\n"));
    return;
  }
  const { files } = await backupDataDir(config.dataDir, destination);
  console.log(`Backed up the database and ${files} files to ${destination}`);
});
