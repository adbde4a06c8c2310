// npm run db:copy -- --from sqlite:<file> --to postgres://user:pass@host:5432/db
// Copies an installation's SQLite database into an EMPTY PostgreSQL database
// (migrated to the latest schema first), in one transaction, and prints each
// table's row counts and checksums on both sides (app/infra/database-copy.server.ts).
// Stop the server first (or keep it from writing): writes after the snapshot are not copied.
// Use the direct (unpooled) URL as --to.
import path from "node:path";
import { CopyMismatch, copySqliteToPostgres, formatCopyReport } from "~/infra/database-copy.server";
import { isPostgresUrl, openDatabase } from "~/infra/db.server";
import { databaseUnavailableLine, isDatabaseUnavailable } from "~/infra/database-errors.server";
import { readArgs, runCommand } from "./cli-args";

const USAGE =
  "Usage: npm run db:copy -- --from sqlite:<file> --to postgres://user:pass@host:5432/db";

await runCommand(async () => {
  const { options } = readArgs();
  const from = options.from ?? "";
  const to = options.to ?? "";
  if (!from.startsWith("sqlite:") || from === "sqlite:") throw new Error(USAGE);
  if (!isPostgresUrl(to)) throw new Error(USAGE);
  const sqliteFile = path.resolve(from.slice("sqlite:".length));
  const target = openDatabase({ url: to, poolSize: 2 });
  try {
    const report = await copySqliteToPostgres({ sqliteFile, target, log: console.log });
    console.log(formatCopyReport(report));
    const rows = report.reduce((sum, t) => sum + t.targetRows, 0);
    console.log(
      `Copied ${rows} rows in ${report.length} tables from ${sqliteFile}; every table's count and checksum match.`,
    );
  } catch (error) {
    if (error instanceof CopyMismatch) console.log(formatCopyReport(error.report));
    if (isDatabaseUnavailable(error))
      throw new Error(databaseUnavailableLine(error, "the --to URL"));
    throw error;
  } finally {
    await target.destroy();
  }
});
