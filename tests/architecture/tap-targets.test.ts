import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

/**
 * Every checkbox and radio button in the app is at least 24 x 24 px, a
 * finger's tap (WCAG 2.5.8): its class list has `choice-input` (app/tailwind.css,
 * size-6), or it is a switch drawn 24 px tall (`h-6`), or it is visually hidden
 * (`sr-only`, the toast's CSS-only close, whose label is the target). Read
 * from the source, so a new form cannot forget it.
 */

const APP = path.resolve(__dirname, "../../app");

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith(".tsx") && !entry.name.includes(".test.") ? [full] : [];
  });
}

interface ChoiceInput {
  where: string;
  type: string;
  role: string | null;
  className: string | null;
}

/** The `type: "checkbox"` of a spread like {...getInputProps(field, { type: "checkbox" })}. */
function spreadType(spread: ts.JsxSpreadAttribute): string | null {
  let found: string | null = null;
  const visit = (node: ts.Node) => {
    if (
      ts.isPropertyAssignment(node) &&
      node.name.getText() === "type" &&
      ts.isStringLiteral(node.initializer)
    )
      found = node.initializer.text;
    ts.forEachChild(node, visit);
  };
  visit(spread.expression);
  return found;
}

/** A string attribute's value: "x", {"x"} or {`x`} (null for anything computed). */
function literal(attribute: ts.JsxAttribute): string | null {
  const value = attribute.initializer;
  if (!value) return null;
  if (ts.isStringLiteral(value)) return value.text;
  if (ts.isJsxExpression(value) && value.expression) {
    const expression = value.expression;
    if (ts.isStringLiteral(expression) || ts.isNoSubstitutionTemplateLiteral(expression))
      return expression.text;
    if (ts.isTemplateExpression(expression)) return expression.getText();
  }
  return null;
}

function choiceInputs(file: string): ChoiceInput[] {
  const text = fs.readFileSync(file, "utf8");
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: ChoiceInput[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isJsxSelfClosingElement(node) || ts.isJsxOpeningElement(node)) &&
      node.tagName.getText() === "input"
    ) {
      let type: string | null = null;
      let role: string | null = null;
      let className: string | null = null;
      for (const attribute of node.attributes.properties) {
        if (ts.isJsxSpreadAttribute(attribute)) {
          type = spreadType(attribute) ?? type;
          continue;
        }
        const name = attribute.name.getText();
        if (name === "type") type = literal(attribute);
        if (name === "role") role = literal(attribute);
        if (name === "className") className = literal(attribute);
      }
      if (type === "checkbox" || type === "radio") {
        const { line } = source.getLineAndCharacterOfPosition(node.getStart());
        found.push({ where: `${path.relative(APP, file)}:${line + 1}`, type, role, className });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function bigEnough({ role, className }: ChoiceInput): boolean {
  const classes = new Set((className ?? "").split(/\s+/));
  if (classes.has("choice-input") || classes.has("sr-only")) return true;
  return role === "switch" && classes.has("h-6");
}

describe("tap targets", () => {
  const inputs = sourceFiles(APP).flatMap(choiceInputs);

  it("finds the app's checkboxes and radio buttons (the scan sees them)", () => {
    expect(inputs.filter((input) => input.type === "checkbox").length).toBeGreaterThanOrEqual(6);
    expect(inputs.filter((input) => input.type === "radio").length).toBeGreaterThanOrEqual(3);
    expect(inputs.some((input) => input.role === "switch")).toBe(true);
  });

  it("makes every checkbox and radio button at least 24 x 24 px", () => {
    expect(inputs.filter((input) => !bigEnough(input)).map((input) => input.where)).toEqual([]);
  });
});
