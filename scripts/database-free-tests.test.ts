import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { databaseFreeTestFiles } from "./database-free-tests.mjs";

let root: string;
function tree(files: Record<string, string>) {
  root = fs.mkdtempSync(path.join(os.tmpdir(), "database-free-"));
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

describe("the test files the PostgreSQL pass leaves to the SQLite pass", () => {
  it("keeps every file with a chain of imports to the database module, through aliases, re-exports and cycles", () => {
    tree({
      "app/infra/db.server.ts": "export const getDb = () => 1;\n",
      "app/features/a/service.server.ts": 'import { getDb } from "~/infra/db.server";\n',
      "app/features/a/public.server.ts": 'export * from "./service.server";\n',
      "app/features/a/cycle-one.ts": 'import "./cycle-two";\nimport "./public.server";\n',
      "app/features/a/cycle-two.ts": 'import "./cycle-one";\n',
      "app/features/a/a.test.ts": 'import { x } from "./public.server";\n',
      "app/features/a/cycle.test.ts": 'import "./cycle-two";\n',
      "app/lib/pure.ts": 'import sharp from "sharp";\nexport const pure = 1;\n',
      "app/lib/pure.test.ts": 'import { pure } from "~/lib/pure";\nimport { it } from "vitest";\n',
      "tests/setup/helper.ts": 'export const later = () => import("~/infra/db.server");\n',
      "tests/helper.test.ts": 'import { later } from "#tests/setup/helper";\n',
      "tests/e2e/page.test.ts": 'import "../../app/lib/pure";\n',
    });
    expect(databaseFreeTestFiles(root)).toEqual(["app/lib/pure.test.ts"]);
  });

  it("counts as reaching the database a file it cannot read to the end: an unresolved import, a computed import, a child process", () => {
    tree({
      "app/infra/db.server.ts": "export const getDb = () => 1;\n",
      "app/lib/missing.test.ts": 'import "./not-there";\n',
      "app/lib/computed.test.ts": "const name = 'x';\nawait import(name);\n",
      "scripts/cli.test.ts": 'import { spawn } from "node:child_process";\n',
      "scripts/fine.test.ts": 'import path from "node:path";\n',
    });
    expect(databaseFreeTestFiles(root)).toEqual(["scripts/fine.test.ts"]);
  });
});
