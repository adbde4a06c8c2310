import { defineConfig } from "vitest/config";
import base from "../../vitest.config";

export default defineConfig({
  ...base,
  test: { ...base.test, include: ["scripts/flows/*.flow.ts"], testTimeout: 300_000 },
});
