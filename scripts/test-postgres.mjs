// The database suites again on PostgreSQL: every vitest file runs with
// TEST_DATABASE_URL set, so each file gets a fresh PostgreSQL database of its
// own (tests/setup/test-postgres.ts) instead of an SQLite file.
//
// The server is TEST_DATABASE_URL, or the local one at 127.0.0.1:5432. With
// none reachable the run is skipped with one line, unless CI is set: CI must
// run both engines (.ci/run starts a server first).
import { spawn } from "node:child_process";
import { databaseFreeTestFiles } from "./database-free-tests.mjs";
import { LOCAL_POSTGRES_URL, probePostgres, withoutPassword } from "./postgres-probe.mjs";

const url = process.env.TEST_DATABASE_URL || LOCAL_POSTGRES_URL;
const problem = await probePostgres(url);
if (problem) {
  const line = `PostgreSQL suite: no usable server at ${withoutPassword(url)} (${problem}); set TEST_DATABASE_URL to run it.`;
  if (process.env.CI) {
    console.error(line);
    process.exit(1);
  }
  console.log(`${line} Skipped.`);
  process.exit(0);
}

console.log(`PostgreSQL suite on ${withoutPassword(url)}`);
// Components and feature-free UI pieces render with Testing Library and never
// touch the database, nor does any file whose imports cannot reach it
// (scripts/database-free-tests.mjs): the SQLite pass runs them; here they
// would only run again with the same result.
const withoutDatabase = [
  "app/**/components/**/*.test.tsx",
  "app/ui/**/*.test.tsx",
  ...databaseFreeTestFiles(),
];
const child = spawn(
  "npx",
  [
    "vitest",
    "run",
    ...withoutDatabase.flatMap((glob) => ["--exclude", glob]),
    ...process.argv.slice(2),
  ],
  {
    stdio: "inherit",
    env: { ...process.env, TEST_DATABASE_URL: url },
  },
);
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
