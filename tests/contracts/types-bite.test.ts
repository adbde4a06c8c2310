import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { expect, it } from "vitest";

/**
 * Typechecks tests/contracts/types-bite.ts alone: its deliberately wrong fal
 * and Stripe calls must each be refused by the vendors' types (an unused
 * `@ts-expect-error` fails the check), and its right ones accepted.
 */
it("the Stripe and fal types still refuse wrong calls and accept ours", async () => {
  const root = path.resolve(__dirname, "../..");
  const tsc = path.join(root, "node_modules/typescript/bin/tsc");
  const result = await promisify(execFile)(
    process.execPath,
    [tsc, "-p", "tests/contracts/tsconfig.types-bite.json"],
    {
      cwd: root,
      timeout: 120_000,
    },
  ).then(
    () => ({ ok: true, output: "" }),
    (error: { stdout?: string; stderr?: string }) => ({
      ok: false,
      output: `${error.stdout ?? ""}${error.stderr ?? ""}`,
    }),
  );
  expect(result.output).toBe("");
  expect(result.ok).toBe(true);
}, 130_000);

it("the fal engine code casts no input (no `as never`, `as any` or `as unknown as`)", async () => {
  const fs = await import("node:fs");
  const root = path.resolve(__dirname, "../..");
  const files = [
    "app/engines/fal/fal-inputs.server.ts",
    "app/engines/fal/fal-client.server.ts",
    "app/engines/styling/fal-engine.server.ts",
    "app/engines/styling/fal-models.server.ts",
    "app/engines/upscaling/fal-upscaler.server.ts",
  ];
  for (const file of files) {
    const source = fs.readFileSync(path.join(root, file), "utf8");
    expect(source, file).not.toMatch(/\bas (?:never|any)\b|\bas unknown as\b/);
  }
});
