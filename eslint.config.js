import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import globals from "globals";
import fs from "node:fs";
import boundaries from "eslint-plugin-boundaries";

/** The features, one folder each under app/features. */
const FEATURES = fs
  .readdirSync(new URL("./app/features", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Every part of a feature. */
const featureParts = (name) => [
  `${name}-procedures`,
  `${name}-public-calls`,
  `${name}-api`,
  `${name}-public`,
  `${name}-components`,
  `${name}-inside`,
];
/** What others may use of a feature: its procedures, what it hands other features (public.server.ts), public types and schemas, and components. */
const facesOf = (name) => [
  `${name}-procedures`,
  `${name}-public-calls`,
  `${name}-public`,
  `${name}-components`,
];
const allow = (from, to) => ({
  from: { element: { types: { anyOf: [from] } } },
  allow: { to: { element: { types: { anyOf: to } } } },
});

/** A route never runs a procedure itself (decision 081). */
const NO_INVOKE = {
  group: ["~/infra/procedure.server", "**/infra/procedure.server"],
  importNames: ["invoke", "invokeParsed"],
  message:
    "A route runs a procedure through app/web/screen-action.server.ts (screenAction, loadProcedure, attemptProcedure), never invoke itself.",
};

export default tseslint.config(
  {
    ignores: [
      "build/**",
      "public/build/**",
      "data/**",
      "node_modules/**",
      "test-results/**",
      "playwright-report/**",
      ".cache/**",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "@typescript-eslint/consistent-type-imports": "error",
    },
  },
  {
    // Playwright fixtures call `use`, which is not a React hook.
    files: ["tests/e2e/**"],
    rules: { "react-hooks/rules-of-hooks": "off" },
  },
  {
    // Three doors for a screen (docs/architecture.md, "A screen"; decision 081): an action
    // through `screenAction` (or `submitForm`, `screenCall`), a loader through `loadProcedure`,
    // or `attemptProcedure` where the page shows a refusal. No route runs a procedure
    // itself, nor catches the Response `loadProcedure` throws.
    files: ["app/routes/**/*.{ts,tsx}", "app/root.tsx"],
    ignores: ["**/*.test.{ts,tsx}"],
    rules: {
      "no-restricted-imports": ["error", { patterns: [NO_INVOKE] }],
      "no-restricted-syntax": [
        "error",
        {
          selector: "BinaryExpression[operator='instanceof'][right.name='Response']",
          message:
            "A route does not catch the Response loadProcedure throws: use attemptProcedure where the page shows a refusal.",
        },
        {
          // An action that reads the form's intent switches on it by hand.
          selector:
            ":matches(FunctionDeclaration[id.name=/^(action|[a-z]\\w*Action)$/], VariableDeclarator[id.name=/^(action|[a-z]\\w*Action)$/]) CallExpression[callee.property.name='get'][arguments.0.value='intent']",
          message:
            "An action with several intents is one screenAction with an intent per value (an unknown one gets unknownIntent).",
        },
      ],
    },
  },
  {
    // A screen's guard is requireScreenUser (its "optional" access for a page that may be signed
    // out). /api handlers are not screens: the OAuth callback and the Shopify install read the
    // session themselves.
    files: ["app/routes/**/*.{ts,tsx}", "app/root.tsx"],
    ignores: ["**/*.test.{ts,tsx}", "app/routes/api+/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            NO_INVOKE,
            {
              group: ["~/web/auth.server", "**/web/auth.server"],
              importNames: ["getWebUser"],
              message:
                'A screen\'s guard is requireScreenUser (app/web/screen-guards.server.ts), with access "optional" where a visitor may be signed out.',
            },
          ],
        },
      ],
    },
  },
  {
    // The floor plan: which folder may import which (docs/architecture.md).
    files: ["app/**/*.{ts,tsx}", "db/**/*.ts"],
    // Tests (and the scripts a test runs as a child process, *.fixture.ts) may
    // reach across the floors to set up what they check.
    ignores: ["**/*.test.{ts,tsx}", "**/*.fixture.ts"],
    plugins: { boundaries },
    settings: {
      "import/resolver": { typescript: { project: "./tsconfig.json" } },
      // Single files are elements through `mode: "full"`, which v7 calls legacy; its
      // suggested `partialMatch: false` names folders, not files, so the warning is off.
      "boundaries/legacy-warnings": false,
      "boundaries/elements": [
        { type: "db", pattern: "db" },
        { type: "lib", pattern: "app/lib" },
        // The procedure kit (declare, invoke, domain errors, the call context, the /api
        // entry's type): the part of the floor that routes use to run procedures.
        {
          type: "kit",
          pattern: "app/infra/{procedure,errors,call-context,api-entry}.server.ts",
          mode: "full",
        },
        { type: "infra", pattern: "app/infra" },
        { type: "engines", pattern: "app/engines" },
        { type: "web", pattern: "app/web" },
        { type: "ui", pattern: "app/ui" },
        ...FEATURES.flatMap((name) => [
          // A feature's face: its procedures (and what it hands other features), its
          // isomorphic modules (types, schemas, copy, browser helpers) and its components.
          // A feature keeps a room per sub-area (market/catalog/, market/checkout/, ...),
          // each holding its procedures, services, components and tests.
          {
            // Its procedures: procedures.server.ts, or <what>.procedures.server.ts, in the
            // feature's folder or a sub-area's (a small feature: procedures/<what>.server.ts).
            type: `${name}-procedures`,
            pattern: [
              `app/features/${name}/**/{procedures,*.procedures}.server.ts`,
              `app/features/${name}/procedures/*.server.ts`,
            ],
            mode: "full",
          },
          // What it hands other features (service calls that are not operations of their own).
          {
            type: `${name}-public-calls`,
            pattern: `app/features/${name}/public.server.ts`,
            mode: "full",
          },
          // Its /api endpoints, entries of the route table (app/routes/api+/api-route-table.server.ts).
          { type: `${name}-api`, pattern: `app/features/${name}/api.server.ts`, mode: "full" },
          {
            type: `${name}-inside`,
            pattern: `app/features/${name}/**/*.server.{ts,tsx}`,
            mode: "full",
          },
          {
            type: `${name}-components`,
            pattern: `app/features/${name}/**/components/**`,
            mode: "full",
          },
          { type: `${name}-public`, pattern: `app/features/${name}/**/*.{ts,tsx}`, mode: "full" },
          // Everything else in the feature (connectors/, a worker script) is its own business.
          { type: `${name}-inside`, pattern: `app/features/${name}`, mode: "folder" },
        ]),
        { type: "routes", pattern: "app/routes" },
        { type: "boot", pattern: "app/boot" },
        { type: "entry", pattern: "app/*.{ts,tsx}", mode: "full" },
      ],
    },
    rules: {
      "boundaries/dependencies": [
        2,
        {
          default: "disallow",
          policies: [
            allow("db", ["db"]),
            allow("lib", ["lib"]),
            allow("kit", ["kit", "infra", "lib", "db"]),
            allow("infra", ["infra", "kit", "lib", "db"]),
            allow("engines", ["engines", "infra", "kit", "lib"]),
            allow("ui", ["ui", "lib"]),
            // The edge knows who is calling: it may use the accounts feature.
            allow("web", ["web", "infra", "kit", "lib", "db", ...featureParts("accounts")]),
            ...FEATURES.flatMap((name) => {
              const others = FEATURES.filter((other) => other !== name);
              const floor = ["infra", "kit", "engines", "ui", "lib", "db"];
              return [
                // Inside a feature anything goes; another feature only through its face.
                allow(`${name}-procedures`, [
                  ...featureParts(name),
                  ...floor,
                  ...others.flatMap(facesOf),
                ]),
                allow(`${name}-public-calls`, [
                  ...featureParts(name),
                  ...floor,
                  ...others.flatMap(facesOf),
                ]),
                // Its /api entries name its own procedures (and the kit's entry type); only
                // the route table imports them.
                allow(`${name}-api`, [...featureParts(name), ...floor, ...others.flatMap(facesOf)]),
                allow(`${name}-inside`, [
                  ...featureParts(name),
                  ...floor,
                  ...others.flatMap(facesOf),
                ]),
                // Isomorphic modules stay isomorphic: no .server module, no infra.
                allow(`${name}-public`, [
                  `${name}-public`,
                  "ui",
                  "lib",
                  ...others.map((other) => `${other}-public`),
                ]),
                // Components run in the browser too: no procedures, but they may show another feature's components.
                allow(`${name}-components`, [
                  `${name}-components`,
                  `${name}-public`,
                  "ui",
                  "lib",
                  ...others.flatMap((other) => [`${other}-public`, `${other}-components`]),
                ]),
              ];
            }),
            // Routes (and root.tsx, the root route) use the edge and the features' faces;
            // the /api route table gathers the features' /api entries.
            allow("routes", [
              "routes",
              "entry",
              "web",
              "kit",
              "ui",
              "lib",
              ...FEATURES.flatMap(facesOf),
              ...FEATURES.map((name) => `${name}-api`),
            ]),
            allow("entry", [
              "entry",
              "web",
              "boot",
              "infra",
              "kit",
              "ui",
              "lib",
              ...FEATURES.flatMap(facesOf),
            ]),
            // The composition root knows every part.
            allow("boot", [
              "boot",
              "web",
              "infra",
              "kit",
              "engines",
              "lib",
              "db",
              ...FEATURES.flatMap(featureParts),
            ]),
          ],
        },
      ],
    },
  },
);
