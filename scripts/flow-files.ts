/**
 * Follows a flow call by call and counts the source files it crosses.
 *
 *   npx tsx scripts/flow-files.ts            every flow of FLOWS, with its files
 *   npx tsx scripts/flow-files.ts upload     one flow
 *
 * A flow is a list of steps, each a function (or a const holding one, such as a
 * procedure) in a file of app/ or db/. From each step the script reads the
 * function's body and follows every call, JSX element, `new` and reference to
 * another function of app/ or db/ (types are not followed), into that
 * function's body, and so on. Where the callee is chosen as the program runs
 * (a procedure's `run` behind `invoke`, a job handler behind the worker's
 * registry, an engine behind its interface) the flow names the next step
 * itself. Every branch counts, the refusals too: the figure is an upper bound
 * of what one request runs. Packages are not followed.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

interface Flow {
  name: string;
  title: string;
  steps: string[];
}

/** The flows docs/architecture.md walks, from the first thing the user does to what they get. */
export const FLOWS: Flow[] = [
  {
    name: "upload",
    title: "A creator uploads a selfie and styles it (with JavaScript)",
    steps: [
      "app/features/studio/images/components/upload-widget.tsx:UploadWidget",
      "app/routes/_studio+/dashboard.server.ts:dashboardAction",
      "app/features/studio/images/procedures.server.ts:uploadImage",
      "app/features/studio/styles/components/style-generator.tsx:StyleGenerator",
      "app/features/studio/styles/procedures.server.ts:stylizeImage",
      "app/features/studio/styles/stylize-job.server.ts:stylizeJobHandler",
      "app/engines/styling/local-engine.server.ts:createLocalEngine",
      "app/features/studio/styles/components/use-style-in-progress.ts:useStyleInProgress",
      "app/routes/_studio+/dashboard.server.ts:dashboardLoader",
    ],
  },
  {
    name: "purchase",
    title: "A buyer buys and downloads (the built-in test checkout)",
    steps: [
      "app/routes/_market+/cart.tsx:action",
      "app/features/market/checkout/procedures.server.ts:checkout",
      "app/routes/_market+/test-checkout.$sessionId.tsx:action",
      "app/features/market/checkout/procedures.server.ts:payTestCheckout",
      "app/routes/_resources+/downloads.$token.ts:loader",
      "app/features/market/library/procedures.server.ts:downloadPurchase",
    ],
  },
  {
    name: "erasure",
    title: "A creator deletes their account",
    steps: [
      "app/routes/_studio+/settings.delete.tsx:action",
      "app/features/erasure/procedures/erasure.server.ts:eraseMyAccount",
      "app/features/erasure/erasure-job.server.ts:eraseAccountJobHandler",
    ],
  },
];

const HERE = fileURLToPath(import.meta.url);
const ROOT = path.resolve(path.dirname(HERE), "..");
const inProject = (file: string) =>
  !file.includes("/node_modules/") &&
  !file.endsWith(".d.ts") &&
  (file.startsWith(path.join(ROOT, "app/")) || file.startsWith(path.join(ROOT, "db/")));

function program(): ts.Program {
  const configPath = path.join(ROOT, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT);
  const roots = parsed.fileNames.filter(
    (file) => inProject(file) && !/\.test\.tsx?$|\.fixture\.ts$/.test(file),
  );
  return ts.createProgram(roots, parsed.options);
}

/** The node a step names: a function, a class, or a const's initializer. */
function stepNode(source: ts.SourceFile, name: string): ts.Node {
  let found: ts.Node | undefined;
  source.forEachChild(function visit(node) {
    if (found) return;
    if ((ts.isFunctionDeclaration(node) || ts.isClassDeclaration(node)) && node.name?.text === name)
      found = node;
    else if (
      ts.isVariableDeclaration(node) &&
      ts.isIdentifier(node.name) &&
      node.name.text === name
    )
      found = node.initializer ?? node;
    else node.forEachChild(visit);
  });
  if (!found) throw new Error(`${source.fileName}: no ${name}`);
  return found;
}

/** What a declaration runs when it is used: a function's body, a class, a const's initializer. */
function runnable(declaration: ts.Declaration): ts.Node | null {
  if (ts.isFunctionDeclaration(declaration) || ts.isMethodDeclaration(declaration))
    return declaration.body ?? null;
  if (ts.isClassDeclaration(declaration)) return declaration;
  if (ts.isVariableDeclaration(declaration)) return declaration.initializer ?? null;
  if (ts.isPropertyAssignment(declaration)) return declaration.initializer;
  if (ts.isArrowFunction(declaration) || ts.isFunctionExpression(declaration)) return declaration;
  return null;
}

function isTypePosition(node: ts.Node): boolean {
  for (let at: ts.Node | undefined = node.parent; at; at = at.parent) {
    if (ts.isTypeNode(at) || ts.isTypeAliasDeclaration(at) || ts.isInterfaceDeclaration(at))
      return true;
    if (ts.isImportDeclaration(at) || ts.isExportDeclaration(at)) return true;
    if (ts.isStatement(at) || ts.isExpression(at)) return false;
  }
  return false;
}

/** The files a flow crosses, in the order it first enters them. */
export function filesOfFlow(flow: Flow, prog: ts.Program = program()): string[] {
  const checker = prog.getTypeChecker();
  const files: string[] = [];
  const seen = new Set<ts.Node>();
  const enter = (file: string) => {
    const relative = path.relative(ROOT, file);
    if (!files.includes(relative)) files.push(relative);
  };
  const walk = (start: ts.Node) => {
    const queue = [start];
    while (queue.length > 0) {
      const node = queue.shift()!;
      if (seen.has(node)) continue;
      seen.add(node);
      enter(node.getSourceFile().fileName);
      node.forEachChild(function visit(child) {
        if (ts.isIdentifier(child) && !isTypePosition(child)) {
          let symbol = checker.getSymbolAtLocation(child);
          if (symbol && symbol.flags & ts.SymbolFlags.Alias)
            symbol = checker.getAliasedSymbol(symbol);
          for (const declaration of symbol?.declarations ?? []) {
            if (!inProject(declaration.getSourceFile().fileName)) continue;
            if (
              declaration.getSourceFile() === child.getSourceFile() &&
              declaration === child.parent
            )
              continue;
            const body = runnable(declaration);
            if (body && !seen.has(body)) queue.push(body);
          }
        }
        child.forEachChild(visit);
      });
    }
  };
  for (const step of flow.steps) {
    const [file, name] = step.split(":");
    const source = prog.getSourceFile(path.join(ROOT, file));
    if (!source) throw new Error(`no such file ${file}`);
    walk(stepNode(source, name));
  }
  return files;
}

function main() {
  const wanted = process.argv.slice(2);
  const prog = program();
  for (const flow of FLOWS.filter((f) => wanted.length === 0 || wanted.includes(f.name))) {
    const files = filesOfFlow(flow, prog);
    const folders = new Set(files.map((file) => file.split("/").slice(0, 2).join("/")));
    console.log(`${flow.name}: ${flow.title}`);
    console.log(`  ${files.length} files in ${folders.size} folders (${[...folders].join(", ")})`);
    for (const file of files) console.log(`    ${file}`);
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === HERE) main();
