import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import zlib from "node:zlib";
import type { GraphQLSchema, IntrospectionQuery } from "graphql";
import { buildClientSchema } from "graphql";

/**
 * Shopify's Admin GraphQL schema for the contract tests, as Shopify publishes
 * it in its npm package `@shopify/dev-mcp` (dist/data/admin_<version>.json.gz,
 * an introspection answer). Only that one file is taken: `npm pack` fetches the
 * pinned package version, its tarball is checked against the pinned integrity,
 * the file is extracted and checked against its pinned SHA-256, and kept under
 * tests/.tmp (git-ignored) so later runs need no network. The package is not a
 * dependency (it would pull in the whole Shopify CLI).
 *
 * Pinned: @shopify/dev-mcp 1.16.0 carries admin schemas 2025-10 to 2026-10 and
 * unstable; the app pins 2026-10 (SHOPIFY_API_VERSION), which is among them.
 */
export const DEV_MCP_VERSION = "1.16.0";
export const DEV_MCP_INTEGRITY =
  "sha512-tqgRnK7sQhjew+htxtleTH23nXB5fZcsrhWgEkomsorGXvLOB2mh2upwZm8uzuTDNTZnqtLMe64yIwh6s2awtw==";
export const ADMIN_SCHEMA_VERSION = "2026-10";
const ADMIN_SCHEMA_SHA256 = "f3b522f264556925eada700e795e4a002a9cba83444ebcc6c0d724254a0c6593";

const run = promisify(execFile);
const CACHE_DIR = path.resolve(__dirname, "../.tmp/shopify-admin-schema");
const member = `package/dist/data/admin_${ADMIN_SCHEMA_VERSION}.json.gz`;

function sha256(bytes: Buffer): string {
  return crypto.createHash("sha256").update(bytes).digest("hex");
}

/** The cached schema file, fetched and checked first when it is missing or altered. */
export async function ensureShopifyAdminSchemaFile(): Promise<string> {
  const cached = path.join(CACHE_DIR, `${DEV_MCP_VERSION}-admin_${ADMIN_SCHEMA_VERSION}.json.gz`);
  if (fs.existsSync(cached) && sha256(fs.readFileSync(cached)) === ADMIN_SCHEMA_SHA256)
    return cached;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), "dev-mcp-"));
  try {
    await run(
      "npm",
      ["pack", `@shopify/dev-mcp@${DEV_MCP_VERSION}`, "--pack-destination", work, "--silent"],
      {
        cwd: work,
        timeout: 240_000,
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    const tarball = path.join(work, `shopify-dev-mcp-${DEV_MCP_VERSION}.tgz`);
    const [algorithm, expected] = DEV_MCP_INTEGRITY.split(/-(.*)/s);
    const actual = crypto.createHash(algorithm).update(fs.readFileSync(tarball)).digest("base64");
    if (actual !== expected)
      throw new Error(
        `@shopify/dev-mcp@${DEV_MCP_VERSION}: the tarball does not match the pinned integrity`,
      );
    await run("tar", ["-xzf", tarball, "-C", work, member], { timeout: 60_000 });
    const file = fs.readFileSync(path.join(work, member));
    if (sha256(file) !== ADMIN_SCHEMA_SHA256)
      throw new Error(`${member} does not match its pinned SHA-256`);
    fs.mkdirSync(CACHE_DIR, { recursive: true });
    fs.writeFileSync(`${cached}.partial`, file);
    fs.renameSync(`${cached}.partial`, cached);
    return cached;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

export async function loadShopifyAdminSchema(): Promise<GraphQLSchema> {
  const file = await ensureShopifyAdminSchemaFile();
  const answer = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString("utf8")) as {
    data: IntrospectionQuery;
  };
  return buildClientSchema(answer.data);
}
