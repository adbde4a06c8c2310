import pg from "pg";
import { testPostgresDatabase } from "../../setup/test-postgres";

/**
 * A PostgreSQL database of the process test's own, on the server
 * TEST_DATABASE_URL names: server processes get its `url` as DATABASE_URL,
 * the test reads it back with `query` (its own SQL, `$1` parameters), and
 * `drop` removes it at the end.
 */
export interface ProcessPostgres {
  name: string;
  url: string;
  query: <T>(sql: string, ...params: unknown[]) => Promise<T[]>;
  drop: () => Promise<void>;
}

/** Creates the database; undefined when TEST_DATABASE_URL is unset (no PostgreSQL to run on). */
export async function createProcessPostgres(
  serverUrl = process.env.TEST_DATABASE_URL,
): Promise<ProcessPostgres | undefined> {
  const database = testPostgresDatabase(serverUrl);
  if (!database) return undefined;
  await database.create();
  const pool = new pg.Pool({ connectionString: database.url, max: 2 });
  pool.on("error", () => undefined);
  return {
    name: database.name,
    url: database.url,
    query: async <T>(sql: string, ...params: unknown[]) =>
      (await pool.query(sql, params)).rows as T[],
    drop: async () => {
      await pool.end();
      await database.drop();
    },
  };
}
