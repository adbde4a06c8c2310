// npm run backup -- [destination]   (default: ./backups/<timestamp>)
// Safe while the server runs: SQLite's online backup API, then the files.
import path from "node:path";
import { backupDataDir } from "~/infra/backup.server";
import { getConfig } from "~/infra/config.server";
import { readArgs, runCommand } from "./cli-args";

await runCommand(async () => {
  const { positionals } = readArgs();
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const destination = path.resolve(positionals[0] ?? path.join("backups", stamp));
  const { files } = await backupDataDir(getConfig().dataDir, destination);
  console.log(`Backed up the database and ${files} files to ${destination}`);
});
