import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import url from "node:url";
import SQLite from "better-sqlite3";

/**
 * A real server process for the process tests (backup, crash, race): the
 * production entry `node scripts/start.mjs` on its own port and data
 * directory, with no outside keys unless a test passes them. It can be
 * stopped politely (SIGTERM) or killed (SIGKILL) and started again on the
 * same directory.
 */
export const ROOT = path.resolve(path.dirname(url.fileURLToPath(import.meta.url)), "../../..");
export const PROCESS_ADMIN = { email: "admin@process.test", password: "process-admin-pass" };
const DATABASE_FILE = "selfie-studio.sqlite";

export interface ServerOptions {
  dataDir: string;
  port: number;
  seed?: boolean;
  env?: Record<string, string>;
  /** Extra node arguments, such as `--import <preload>`. */
  nodeArgs?: string[];
}

export interface Consistency {
  /** Paid orders without a ledger row for every item. */
  paidOrdersWithoutLedger: number;
  /** Paid orders without a download grant for every item. */
  paidOrdersWithoutGrants: number;
  /** Keys named by live rows whose file is not on the volume. */
  missingFiles: string[];
  /** Files on the volume (outside samples/ and tmp/) that no row names. */
  unreferencedFiles: string[];
  integrity: string;
}

export interface RunningServer {
  origin: string;
  dataDir: string;
  pid: number;
  output: () => string;
  /** fetch against this server, as a browser on the same origin would send it. */
  fetch: (pathname: string, init?: RequestInit) => Promise<Response>;
  /** SIGTERM, then wait for the exit. */
  stop: () => Promise<void>;
  /** SIGKILL: no shutdown code runs. */
  kill: () => Promise<void>;
  /** Resolves when the process has exited by itself (a crash point); rejects after `ms`. */
  exited: (ms: number) => Promise<void>;
  /** Reads the database file directly (read-only). */
  query: <T>(sql: string, ...params: unknown[]) => T[];
  inspect: () => Consistency;
}

/** What every server process here starts from: of this shell's environment, only PATH and HOME. */
function productionEnv(port: number, dataDir: string) {
  return {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? "",
    PORT: String(port),
    DATA_DIR: dataDir,
    NODE_ENV: "production" as const,
  };
}

export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const origin = `http://localhost:${options.port}`;
  let output = "";
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(options.nodeArgs ?? []),
      path.join(ROOT, "scripts", "start.mjs"),
      ...(options.seed ? ["--seed"] : []),
    ],
    {
      cwd: ROOT,
      env: {
        ...productionEnv(options.port, options.dataDir),
        ADMIN_EMAIL: PROCESS_ADMIN.email,
        ADMIN_PASSWORD: PROCESS_ADMIN.password,
        REGISTRATION: "closed",
        FAL_KEY: "",
        STRIPE_SECRET_KEY: "",
        // A production server needs PUBLIC_URL, and without Stripe runs the test checkout only when told to.
        PUBLIC_URL: origin,
        ALLOW_TEST_CHECKOUT: options.env?.STRIPE_SECRET_KEY ? "false" : "true",
        // The controller the privacy notice names, which a live store (with Stripe) must have.
        OPERATOR_NAME: "Process Test Operator",
        OPERATOR_ADDRESS: "1 Test Street, Testville",
        PRIVACY_EMAIL: "privacy@process.example",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (gone) throw new Error(`The server on ${origin} exited while starting:\n${output}`);
    try {
      if ((await fetch(`${origin}/healthz`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The server on ${origin} did not start within a minute:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 150));
  }

  const open = () =>
    new SQLite(path.join(options.dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  const query = <T>(sql: string, ...params: unknown[]): T[] => {
    const db = open();
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };

  return {
    origin,
    dataDir: options.dataDir,
    pid: child.pid!,
    output: () => output,
    fetch: (pathname, init = {}) => {
      const headers = new Headers(init.headers);
      if (!headers.has("Origin")) headers.set("Origin", origin);
      return fetch(new URL(pathname, origin), { ...init, headers });
    },
    stop: async () => {
      if (!gone) child.kill("SIGTERM");
      await exited;
    },
    kill: async () => {
      if (!gone) child.kill("SIGKILL");
      await exited;
    },
    exited: (ms) =>
      Promise.race([
        exited,
        new Promise<void>((_, reject) =>
          setTimeout(
            () => reject(new Error(`The server on ${origin} was still running after ${ms} ms`)),
            ms,
          ).unref(),
        ),
      ]),
    query,
    inspect: () => inspectDataDir(options.dataDir),
  };
}

/**
 * A production start that should be refused: `node scripts/start.mjs` on a
 * fresh data directory with only the environment given here (besides PATH,
 * HOME, PORT, DATA_DIR, NODE_ENV=production, PUBLIC_URL and the admin
 * password). Answers the exit code and everything it printed; a server that
 * starts serving instead is killed rather than waited for.
 */
export async function startRefused(options: {
  dataDir: string;
  port: number;
  env?: Record<string, string>;
}): Promise<{ code: number | null; output: string }> {
  fs.rmSync(options.dataDir, { recursive: true, force: true });
  const child = spawn(process.execPath, [path.join(ROOT, "scripts", "start.mjs")], {
    cwd: ROOT,
    env: {
      ...productionEnv(options.port, options.dataDir),
      PUBLIC_URL: "https://selfie.example",
      ...options.env,
      ADMIN_PASSWORD: "process-admin-pass",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (chunk) => (output += chunk));
  child.stderr.on("data", (chunk) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => {
    child.once("exit", resolve);
    // A server that starts serving instead has failed the test: stop it rather than wait.
    child.stdout.on("data", () => {
      if (output.includes("is serving")) child.kill("SIGKILL");
    });
  });
  return { code, output };
}

/**
 * Checks a data directory from outside the app, with its own SQL: the ledger
 * and grants of paid orders, and that rows and files match both ways.
 * Withdrawn listings keep their keys as history while their files may be gone
 * (withdrawing a listing removes its preview), so they are not counted.
 */
export function inspectDataDir(dataDir: string): Consistency {
  const db = new SQLite(path.join(dataDir, DATABASE_FILE), { readonly: true, fileMustExist: true });
  try {
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    const paidOrdersWithoutLedger =
      count(`select count(*) as n from orders o where o.status = 'paid'
      and (select count(*) from order_items i where i.order_id = o.id) <> (select count(*) from earnings e where e.order_id = o.id)`);
    const paidOrdersWithoutGrants =
      count(`select count(*) as n from orders o where o.status = 'paid'
      and exists (select 1 from order_items i where i.order_id = o.id
        and not exists (select 1 from download_grants g where g.order_item_id = i.id))`);
    const live = db
      .prepare(
        `select file_key as key from images
         union select file_key from stylized_images where file_key is not null
         union select optimized_file_key from stylized_images where optimized_file_key is not null
         union select file_key from listings where status = 'active'
         union select preview_key from listings where status = 'active'
         union select file_key from order_items
         union select artifact_key from listing_platforms where artifact_key is not null`,
      )
      .all() as Array<{ key: string }>;
    const historical = db
      .prepare(
        `select file_key as key from listings union select preview_key from listings union select source_file_key from listings`,
      )
      .all() as Array<{ key: string }>;
    const filesDir = path.join(dataDir, "files");
    const onDisk = listFiles(filesDir).filter(
      (key) => !key.startsWith("samples/") && !key.startsWith("tmp/"),
    );
    const named = new Set([...live, ...historical].map((row) => row.key));
    const kitOf = (key: string) => key.replace(/\.(png|jpg)$/, ".zip");
    // A smaller copy of an image for <picture> (`<stem>_<width>w.<avif|webp|jpg>`) belongs to its image.
    const namedStems = new Set([...named].map((key) => key.replace(/\.[a-z0-9]+$/, "")));
    const variantOfNamed = (key: string) => {
      const match = /^(.+)_\d+w\.(avif|webp|jpg)$/.exec(key);
      return match !== null && namedStems.has(match[1]!);
    };
    return {
      paidOrdersWithoutLedger,
      paidOrdersWithoutGrants,
      missingFiles: live
        .map((row) => row.key)
        .filter((key) => !fs.existsSync(path.join(filesDir, key))),
      unreferencedFiles: onDisk.filter(
        (key) =>
          !named.has(key) &&
          !(key.startsWith("kits/") && named.has(kitOf(key))) &&
          !variantOfNamed(key),
      ),
      integrity: String(db.pragma("integrity_check", { simple: true })),
    };
  } finally {
    db.close();
  }
}

function listFiles(dir: string, prefix = ""): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) =>
      entry.isDirectory()
        ? listFiles(path.join(dir, entry.name), `${prefix}${entry.name}/`)
        : [`${prefix}${entry.name}`],
    );
}
