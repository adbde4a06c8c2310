import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import boundaries from "eslint-plugin-boundaries";

export default tseslint.config(
  {
    ignores: ["build/**", "public/build/**", "data/**", "node_modules/**", "test-results/**", "playwright-report/**", ".cache/**"],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Playwright fixtures call `use`, which is not a React hook.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // The floor plan: which folder may import which (README.md, "What is where").
    files: ["app/**/*.{ts,tsx}", "db/**/*.ts"],
    // Tests may reach across the floors to set up what they check.
    ignores: ["**/*.test.{ts,tsx}"],
    plugins: { boundaries },
    settings: {
      "import/resolver": { typescript: { project: "./tsconfig.json" } },
      "boundaries/elements": [
        { type: "db", pattern: "db" },
        { type: "lib", pattern: "app/lib" },
        { type: "infra", pattern: "app/infra" },
        { type: "engines", pattern: "app/engines" },
        { type: "services", pattern: "app/services" },
        { type: "procedures", pattern: "app/procedures" },
        { type: "web", pattern: "app/web" },
        { type: "components", pattern: "app/components" },
        { type: "routes", pattern: "app/routes" },
        { type: "boot", pattern: "app/boot" },
        { type: "entry", pattern: "app/*.{ts,tsx}" },
      ],
    },
    rules: {
      "boundaries/dependencies": [
        2,
        {
          default: "disallow",
          policies: [
            { from: { element: { type: "db" } }, allow: { to: { element: { types: { anyOf: ["db"] } } } } },
            { from: { element: { type: "lib" } }, allow: { to: { element: { types: { anyOf: ["lib"] } } } } },
            { from: { element: { type: "infra" } }, allow: { to: { element: { types: { anyOf: ["infra", "lib", "db"] } } } } },
            { from: { element: { type: "engines" } }, allow: { to: { element: { types: { anyOf: ["engines", "infra", "lib"] } } } } },
            { from: { element: { type: "services" } }, allow: { to: { element: { types: { anyOf: ["services", "engines", "infra", "lib", "db"] } } } } },
            { from: { element: { type: "procedures" } }, allow: { to: { element: { types: { anyOf: ["procedures", "services", "engines", "infra", "lib", "db"] } } } } },
            { from: { element: { type: "web" } }, allow: { to: { element: { types: { anyOf: ["web", "procedures", "services", "infra", "lib", "db"] } } } } },
            { from: { element: { type: "components" } }, allow: { to: { element: { types: { anyOf: ["components", "lib"] } } } } },
            { from: { element: { type: "routes" } }, allow: { to: { element: { types: { anyOf: ["routes", "web", "procedures", "services", "components", "engines", "infra", "lib", "db"] } } } } },
            { from: { element: { type: "entry" } }, allow: { to: { element: { types: { anyOf: ["entry", "web", "boot", "components", "lib", "infra", "routes"] } } } } },
            { from: { element: { type: "boot" } }, allow: { to: { element: { types: { anyOf: ["boot", "web", "procedures", "services", "engines", "infra", "lib", "db"] } } } } },
          ],
        },
      ],
    },
  },
);
