import fs from "node:fs";
import path from "node:path";
import { TABLE_OWNERS, type TableName, type TableOwner } from "#db/table-owners";

/**
 * Every table has one owner (db/table-owners.ts), and only the owner writes
 * it. This test reads the app's source (not its tests) for the tables each
 * module names in a Kysely query, `selectFrom("x")`, `insertInto("x")`,
 * `updateTable("x")`, `deleteFrom("x")`, the joins, aliases like `"x as y"`,
 * and the tables named in raw sql`...` templates, and holds them to the map:
 *
 * - app/features/<f>: writes only the tables f owns; reads another feature's
 *   (or the floor's) table only where READS_ACROSS_FEATURES says why. Anything
 *   else is a call on the owner, through app/features/<owner>/public.server.ts.
 * - app/web: the edge knows who is calling, so it may read the accounts
 *   feature's tables, and nothing else, and writes none.
 * - app/engines, app/routes, app/ui, app/lib: name no table at all.
 * - app/boot: the composition root may write anything: the seed puts the demo
 *   account's data into every feature's tables, as an operator would.
 * - app/infra owns its own tables (the job queue, the test payout provider)
 *   and reads any table it is built to sweep (file references, backups), so it
 *   is not checked here.
 */

type Access = "read" | "write";
interface TableReference {
  table: TableName;
  access: Access;
  /** What named it: the Kysely call, or `sql` for a raw template. */
  via: string;
  line: number;
}
interface AllowedRead {
  reader: string;
  table: TableName;
  reason: string;
}

/**
 * The reads across features that stay a join, each with why. Read-only: no
 * entry ever lets a feature write another's table. An entry nothing uses any
 * more fails the test, so the list only shrinks with the code.
 */
const READS_ACROSS_FEATURES: readonly AllowedRead[] = [
  {
    reader: "reports",
    table: "listings",
    reason:
      "The admin's Reports list and the decision mails name each reported listing by its title, joined in the reports' one query.",
  },
  {
    reader: "admin",
    table: "users",
    reason:
      "The admin's user table and stats page and sort users joined with their counts in one query.",
  },
  {
    reader: "audit",
    table: "users",
    reason:
      "The audit log's pages show each actor's email, while the actor exists, joined in the same paged query.",
  },
  {
    reader: "admin",
    table: "images",
    reason: "The admin's user table and stats count each user's originals in the same paged query.",
  },
  {
    reader: "admin",
    table: "earnings",
    reason:
      "The admin's user table and stats sum the ledger's shares and fees per user in the same paged query.",
  },
  {
    reader: "market",
    table: "users",
    reason:
      "The marketplace, listing pages, sitemap and orders show the creator's name and handle and leave out banned creators, filtered and paged in SQL.",
  },
  {
    reader: "market",
    table: "images",
    reason:
      "Only faces that agreed are sold: the rule reads a listed image's original's likeness, and the admin's listings awaiting consent join it (decision 085).",
  },
  {
    reader: "market",
    table: "stylized_images",
    reason:
      "The admin's listings awaiting consent join each active listing to its stylized image's original in one query (decision 085).",
  },
  {
    reader: "market",
    table: "model_releases",
    reason:
      "Only faces that agreed are sold: another person's face is sold with a model release on file, read beside the likeness (decision 085).",
  },
  {
    reader: "market",
    table: "earnings",
    reason:
      "Sale notices, creator analytics (and its monthly sales CSV) and the creator's export show each item's share as the ledger recorded it.",
  },
  {
    reader: "payouts",
    table: "users",
    reason:
      "Transfers are queued and sent only for creators who are not banned (in the ledger's queries), and the admin's payouts table names each creator.",
  },
  {
    reader: "payouts",
    table: "orders",
    reason:
      "A share is sent in its order's currency against its payment (charge), and held while the order is disputed.",
  },
  {
    reader: "payouts",
    table: "order_items",
    reason:
      "The ledger's views show each share's item (title), and a refund splits across the order's items by their prices, in the order's item order.",
  },
  {
    reader: "payouts",
    table: "jobs",
    reason:
      "A share's transfer is queued once: the ledger's query skips shares whose transfer job waits or runs.",
  },
  {
    reader: "payouts",
    table: "listings",
    reason:
      "A creator's totals count their active listings and views beside the ledger's sums, and each share names its listing's stylized image.",
  },
  {
    reader: "publishing",
    table: "stylized_images",
    reason:
      "A publication sends a stylized image: the publish job reads its file, the model releases card its style (studio uses publishing, not back).",
  },
  {
    reader: "publishing",
    table: "jobs",
    reason: "The cap on waiting publications counts the creator's queued publish jobs.",
  },
  {
    reader: "studio",
    table: "users",
    reason:
      "A style is queued and run only for a creator who is not banned and has agreed to face processing.",
  },
  {
    reader: "mail",
    table: "jobs",
    reason:
      "Mail keeps no table of its own: its queue is the mail jobs, whose failures the admin's undelivered-mail list shows.",
  },
];

const WRITE_CALLS = new Set([
  "insertInto",
  "replaceInto",
  "updateTable",
  "deleteFrom",
  "mergeInto",
]);
const KYSELY_CALL =
  /\b(selectFrom|insertInto|replaceInto|updateTable|deleteFrom|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin|crossJoin)\(\s*(["'`])([A-Za-z_][A-Za-z0-9_]*)(?:\s+as\s+[A-Za-z_][A-Za-z0-9_]*)?\2/g;
const SQL_TEMPLATE = /\bsql(?:<[^`>]*(?:<[^`>]*>[^`>]*)*>)?`([^`]*)`/g;
const RAW_TABLE =
  /\b(delete\s+from|insert\s+(?:or\s+[a-z]+\s+)?into|replace\s+into|update|from|join)\s+["`]?([A-Za-z_][A-Za-z0-9_]*)/gi;

const isTable = (name: string): name is TableName =>
  Object.prototype.hasOwnProperty.call(TABLE_OWNERS, name);
const lineAt = (source: string, index: number) => source.slice(0, index).split("\n").length;

/** The tables a module's source names, each as read or written. */
function tableReferences(source: string): TableReference[] {
  const found: TableReference[] = [];
  for (const match of source.matchAll(KYSELY_CALL)) {
    const [, call, , table] = match;
    if (!isTable(table)) continue;
    found.push({
      table,
      access: WRITE_CALLS.has(call) ? "write" : "read",
      via: call,
      line: lineAt(source, match.index ?? 0),
    });
  }
  for (const template of source.matchAll(SQL_TEMPLATE)) {
    for (const match of template[1].matchAll(RAW_TABLE)) {
      const [, verb, table] = match;
      if (!isTable(table)) continue;
      const access: Access = /^(delete|insert|replace|update)/i.test(verb) ? "write" : "read";
      found.push({
        table,
        access,
        via: "sql",
        line: lineAt(source, (template.index ?? 0) + (match.index ?? 0)),
      });
    }
  }
  return found;
}

/** Where a module sits, by its path from the repository's root (forward slashes). */
type Area =
  | { kind: "feature"; name: string }
  | { kind: "web" }
  | { kind: "boot" }
  | { kind: "tableless"; name: string }
  | { kind: "unchecked" };
function areaOf(file: string): Area {
  const feature = /^app\/features\/([^/]+)\//.exec(file);
  if (feature) return { kind: "feature", name: feature[1] };
  if (file.startsWith("app/web/")) return { kind: "web" };
  if (file.startsWith("app/boot/")) return { kind: "boot" };
  const tableless = /^app\/(engines|routes|ui|lib)\//.exec(file);
  if (tableless) return { kind: "tableless", name: tableless[1] };
  return { kind: "unchecked" };
}

/** What breaks the rule in one module's source, one line each; `used` collects the allow-list entries it relied on. */
function ownershipViolations(
  file: string,
  source: string,
  used: Set<AllowedRead> = new Set(),
): string[] {
  const area = areaOf(file);
  const problems: string[] = [];
  for (const ref of tableReferences(source)) {
    const owner: TableOwner = TABLE_OWNERS[ref.table];
    const at = `${file}:${ref.line} ${ref.via}("${ref.table}")`;
    const askOwner =
      owner === "infra"
        ? "call the floor's function for it (app/infra)"
        : `call ${owner} (its public.server.ts)`;
    switch (area.kind) {
      case "feature": {
        if (owner === area.name) break;
        if (ref.access === "write") {
          problems.push(`${at}: ${area.name} writes a table of ${owner}; ${askOwner} instead`);
          break;
        }
        const allowed = READS_ACROSS_FEATURES.find(
          (entry) => entry.reader === area.name && entry.table === ref.table,
        );
        if (allowed) used.add(allowed);
        else
          problems.push(
            `${at}: ${area.name} reads a table of ${owner}; ${askOwner}, or add the read to the allow-list with its reason`,
          );
        break;
      }
      case "web":
        if (ref.access === "write")
          problems.push(
            `${at}: app/web writes a table of ${owner}; the edge writes nothing itself`,
          );
        else if (owner !== "accounts")
          problems.push(
            `${at}: app/web reads a table of ${owner}; the edge reads only the accounts feature's tables`,
          );
        break;
      case "tableless":
        problems.push(`${at}: app/${area.name} names a table; it goes through a feature`);
        break;
      case "boot":
      case "unchecked":
        break;
    }
  }
  return problems;
}

const ROOT = path.resolve(__dirname, "../..");
const CHECKED_DIRS = [
  "app/features",
  "app/web",
  "app/boot",
  "app/engines",
  "app/routes",
  "app/ui",
  "app/lib",
];

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) files.push(...sourceFiles(relative));
    else if (
      /\.tsx?$/.test(entry.name) &&
      !/\.test\.tsx?$/.test(entry.name) &&
      !/\.fixture\.ts$/.test(entry.name)
    )
      files.push(relative);
  }
  return files;
}

describe("table owners", () => {
  it("names an owner for every table of the schema, each a feature folder or the floor", () => {
    const features = new Set(
      fs
        .readdirSync(path.join(ROOT, "app/features"), { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => entry.name),
    );
    for (const [table, owner] of Object.entries(TABLE_OWNERS)) {
      expect(
        owner === "infra" || features.has(owner),
        `${table} is owned by ${owner}, which is no feature`,
      ).toBe(true);
    }
    const schema = fs.readFileSync(path.join(ROOT, "db/schema.ts"), "utf8");
    const database = /export interface Database \{([^}]*)\}/.exec(schema)?.[1] ?? "";
    const tables = [...database.matchAll(/^\s*([a-z_]+):/gm)].map((match) => match[1]).sort();
    expect(tables.length).toBeGreaterThan(0);
    expect(Object.keys(TABLE_OWNERS).sort()).toEqual(tables);
  });

  it("keeps each allow-list entry a read of another feature's table, with its reason", () => {
    for (const entry of READS_ACROSS_FEATURES) {
      expect(TABLE_OWNERS[entry.table], `${entry.reader} reads its own ${entry.table}`).not.toBe(
        entry.reader,
      );
      expect(
        entry.reason.length,
        `${entry.reader} reading ${entry.table} says why`,
      ).toBeGreaterThan(20);
    }
    const pairs = READS_ACROSS_FEATURES.map((entry) => `${entry.reader}/${entry.table}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it("has every module write only its own tables, and read others' only as the allow-list says", () => {
    const used = new Set<AllowedRead>();
    const problems: string[] = [];
    let scanned = 0;
    for (const dir of CHECKED_DIRS) {
      if (!fs.existsSync(path.join(ROOT, dir))) continue;
      for (const file of sourceFiles(dir)) {
        scanned += 1;
        problems.push(
          ...ownershipViolations(file, fs.readFileSync(path.join(ROOT, file), "utf8"), used),
        );
      }
    }
    expect(scanned).toBeGreaterThan(100);
    expect(problems).toEqual([]);
    const unused = READS_ACROSS_FEATURES.filter((entry) => !used.has(entry)).map(
      (entry) => `${entry.reader} reads ${entry.table}`,
    );
    expect(unused, "allow-list entries no module needs any more: remove them").toEqual([]);
  });

  describe("the check itself", () => {
    it("finds Kysely calls, aliases, calls over several lines and raw SQL", () => {
      const source = [
        'await db.selectFrom("listings as l").innerJoin("users as u", "u.id", "l.user_id")',
        "await trx",
        "  .insertInto(",
        '    "earnings"',
        "  )",
        "await sql`delete from account_exports where user_id = ${userId}`.execute(db);",
        'db.selectFrom("not_a_table")',
      ].join("\n");
      expect(tableReferences(source)).toEqual([
        { table: "listings", access: "read", via: "selectFrom", line: 1 },
        { table: "users", access: "read", via: "innerJoin", line: 1 },
        { table: "earnings", access: "write", via: "insertInto", line: 3 },
        { table: "account_exports", access: "write", via: "sql", line: 6 },
      ]);
    });

    it("fails a write of another feature's table, allow-listed or not", () => {
      expect(
        ownershipViolations(
          "app/features/admin/user-status.server.ts",
          'await trx.updateTable("stylized_images").set({ status: "failed" })',
        ),
      ).toEqual([
        'app/features/admin/user-status.server.ts:1 updateTable("stylized_images"): admin writes a table of studio; call studio (its public.server.ts) instead',
      ]);
      expect(
        ownershipViolations(
          "app/features/market/x.server.ts",
          'await trx.deleteFrom("users").execute()',
        ),
      ).toHaveLength(1);
      expect(
        ownershipViolations(
          "app/features/mail/x.server.ts",
          'await trx.deleteFrom("jobs").where("kind", "=", "mail")',
        ),
      ).toHaveLength(1);
      expect(
        ownershipViolations(
          "app/features/erasure/x.server.ts",
          "await sql`delete from account_exports where user_id = ${id}`.execute(db)",
        ),
      ).toHaveLength(1);
    });

    it("fails a read across features unless the allow-list has it, and passes the owner's own queries", () => {
      expect(
        ownershipViolations(
          "app/features/studio/x.server.ts",
          'db.selectFrom("earnings").selectAll()',
        ),
      ).toHaveLength(1);
      expect(
        ownershipViolations(
          "app/features/market/x.server.ts",
          'db.selectFrom("listings as l").innerJoin("users as u", "u.id", "l.user_id")',
        ),
      ).toEqual([]);
      expect(
        ownershipViolations(
          "app/features/payouts/x.server.ts",
          'db.updateTable("earnings").set({ status: "held" })',
        ),
      ).toEqual([]);
    });

    it("lets the edge read only accounts' tables, boot write anything, and the engines name none", () => {
      expect(
        ownershipViolations("app/web/x.server.ts", 'db.selectFrom("sessions").selectAll()'),
      ).toEqual([]);
      expect(
        ownershipViolations("app/web/x.server.ts", 'db.selectFrom("listings").selectAll()'),
      ).toHaveLength(1);
      expect(
        ownershipViolations("app/web/x.server.ts", 'db.updateTable("sessions").set({})'),
      ).toHaveLength(1);
      expect(
        ownershipViolations(
          "app/boot/seed.server.ts",
          'db.insertInto("stylized_images").values(row)',
        ),
      ).toEqual([]);
      expect(
        ownershipViolations(
          "app/engines/styling/x.server.ts",
          'db.selectFrom("images").selectAll()',
        ),
      ).toHaveLength(1);
    });
  });
});
