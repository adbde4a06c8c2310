import fc from "fast-check";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "~/routes/api+/openapi.server";
import { documentOperations } from "./generated-requests";
import type { JsonSchema } from "./schema-arbitraries";
import { invalidValues, validValue } from "./schema-arbitraries";

/** Every request schema of the document: its parameters' and its JSON body's. */
function requestSchemas(): { where: string; schema: JsonSchema }[] {
  return documentOperations(openApiDocument()).flatMap((op) => [
    ...(op.operation.parameters ?? []).map((parameter) => ({
      where: `${op.key} ${String(parameter.name)}`,
      schema: parameter.schema as JsonSchema,
    })),
    ...Object.entries(op.operation.requestBody?.content ?? {})
      .filter(([type]) => type === "application/json")
      .map(([, content]) => ({
        where: `${op.key} body`,
        schema: (content.schema ?? {}) as JsonSchema,
      })),
  ]);
}

const check = (schema: JsonSchema) => z.fromJSONSchema(schema as z.core.JSONSchema.JSONSchema);

describe("the request generator, on every request schema of the document", () => {
  it("makes values the schema admits", () => {
    const problems: string[] = [];
    for (const { where, schema } of requestSchemas()) {
      for (const value of fc.sample(validValue(schema, "value", {}, where), {
        seed: 37,
        numRuns: 40,
      })) {
        if (!check(schema).safeParse(value).success)
          problems.push(`${where}: ${JSON.stringify(value).slice(0, 120)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("makes invalid values the schema refuses", () => {
    const problems: string[] = [];
    for (const { where, schema } of requestSchemas()) {
      for (const { why, value } of invalidValues(schema, "z".repeat(5000))) {
        if (check(schema).safeParse(value).success)
          problems.push(`${where}: ${why}: ${JSON.stringify(value).slice(0, 80)}`);
      }
    }
    expect(problems).toEqual([]);
  });

  it("refuses a keyword it does not understand, rather than misread it", () => {
    expect(() => validValue({ type: "string", contentEncoding: "base64" }, "value")).toThrow(
      /contentEncoding/,
    );
    expect(() => validValue({ type: "string", format: "ipv6" }, "value")).toThrow(/ipv6/);
  });
});
