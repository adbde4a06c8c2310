// npm run restore -- <backup folder> [--force]
// Restores into DATA_DIR. Stop the server first when replacing a live data directory.
import path from "node:path";
import { restoreDataDir } from "~/infra/backup.server";
import { readArgs, runCommand } from "./cli-args";

await runCommand(async () => {
  const { options, positionals } = readArgs(
    process.argv.slice(2).map((a) => (a === "--force" ? "--force=1" : a)),
  );
  if (!positionals[0]) throw new Error("Usage: npm run restore -- <backup folder> [--force]");
  const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
  await restoreDataDir(path.resolve(positionals[0]), dataDir, { force: options.force === "1" });
  console.log(`Restored ${positionals[0]} into ${dataDir}`);
});
