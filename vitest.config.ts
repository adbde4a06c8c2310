import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    alias: {
      "~": path.resolve(__dirname, "app"),
      "#db": path.resolve(__dirname, "db"),
      "#tests": path.resolve(__dirname, "tests"),
    },
  },
  esbuild: { jsx: "automatic" },
  test: {
    include: [
      "app/**/*.test.{ts,tsx}",
      "db/**/*.test.ts",
      "scripts/**/*.test.ts",
      "tests/**/*.test.{ts,tsx}",
    ],
    exclude: ["tests/e2e/**", "node_modules/**", "build/**"],
    setupFiles: ["tests/setup/setup-test-env.ts", "tests/setup/jest-dom.ts"],
    globalSetup: ["tests/setup/postgres-template.ts"],
    globals: true,
    environment: "node",
    pool: "forks",
    // One test file per core. Vitest's default leaves a core to its own main
    // process, which here spends about 2 % of its time busy: on a 2-core
    // machine that default ran the suite on one core.
    maxWorkers: os.availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
