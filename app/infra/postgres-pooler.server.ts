/**
 * What a PostgreSQL URL says about a connection pooler in front of the
 * database. Kysely's migrator holds a session-level advisory lock
 * (pg_advisory_lock, released by pg_advisory_unlock) across the migration;
 * through PgBouncer in transaction mode the lock and its release may run on
 * different server connections, so the lock can stay held and the next
 * migration waits on it. Migrations therefore refuse a URL that looks pooled
 * unless DATABASE_DIRECT_URL names the database itself.
 */

/**
 * The sign that `url` goes through a pooler, in words for a message (never the
 * URL itself: it may hold the password), or null when none shows:
 * - the `pgbouncer=true` parameter (Prisma's mark for a PgBouncer URL);
 * - port 6432 (PgBouncer's default) or 6543 (Supabase's transaction pooler);
 * - a host naming PgBouncer (Fly Managed Postgres: pgbouncer.<cluster>.flympg.net)
 *   or a pooler (Neon: <endpoint>-pooler.<region>.aws.neon.tech; Supabase:
 *   <region>.pooler.supabase.com).
 */
export function poolerSignOf(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = parsed.hostname.toLowerCase();
  if (parsed.searchParams.get("pgbouncer") === "true") return "it carries pgbouncer=true";
  if (parsed.port === "6432") return "its port is 6432, PgBouncer's";
  if (parsed.port === "6543") return "its port is 6543, Supabase's transaction pooler";
  if (host.includes("pgbouncer")) return "its host names PgBouncer";
  if (host.includes("pooler")) return "its host names a pooler";
  return null;
}

/** The refusal's one line, naming the setting that fixes it (and not the URL). */
export function pooledMigrationProblem(sign: string): string {
  return (
    `DATABASE_URL: looks like a connection pooler (${sign}), and migrations hold a session-level lock that a pooler ` +
    "in transaction mode can leave held. Set DATABASE_DIRECT_URL to the database's direct URL (Fly Managed Postgres: " +
    "the direct.<cluster>.flympg.net URL from the cluster's Connect tab); behind a pooler in session mode it may be " +
    "the same URL as DATABASE_URL."
  );
}
