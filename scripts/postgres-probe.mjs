// Whether a PostgreSQL server the tests can use answers at a URL: it accepts
// the connection and lets its user create databases (each test file makes its
// own). Exit 0 when it does; 1 with one line saying why not.
//   node scripts/postgres-probe.mjs [url]   (default: TEST_DATABASE_URL or the local server)
import pg from "pg";

export const LOCAL_POSTGRES_URL = "postgres://postgres@127.0.0.1:5432/postgres";

/** Resolves to undefined when the server at `url` is usable, else to the reason. */
export async function probePostgres(url) {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    const { rows } = await client.query(
      "select rolcreatedb or rolsuper as can from pg_roles where rolname = current_user",
    );
    if (!rows[0]?.can) return "its user may not create databases";
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.split("\n")[0] : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** The URL without its password, for messages. */
export function withoutPassword(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "(not a URL)";
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.argv[2] ?? process.env.TEST_DATABASE_URL ?? LOCAL_POSTGRES_URL;
  const problem = await probePostgres(url);
  if (problem) {
    console.error(`No usable PostgreSQL at ${withoutPassword(url)}: ${problem}`);
    process.exit(1);
  }
}
