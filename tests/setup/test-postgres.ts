import crypto from "node:crypto";
import pg from "pg";

/**
 * A PostgreSQL database of one test file's own on the server TEST_DATABASE_URL
 * names (its user may create databases): `url` points at it, `create` makes it
 * empty (or a copy of `template`, a database nobody is connected to), `drop`
 * removes it (closing whatever connections are left).
 */
export function testPostgresDatabase(serverUrl: string | undefined, template?: string) {
  if (!serverUrl) return undefined;
  const name = `selfie_test_${process.pid}_${crypto.randomBytes(4).toString("hex")}`;
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  return {
    name,
    url: url.toString(),
    create: () => admin(`create database "${name}"${template ? ` template "${template}"` : ""}`),
    drop: () => admin(`drop database if exists "${name}" with (force)`),
  };
}
