import fc from "fast-check";

/**
 * fast-check arbitraries from the JSON Schemas of the OpenAPI document: values
 * a schema admits, and values it does not. Only the subset of JSON Schema the
 * document uses is understood; any other keyword throws, so a schema the
 * generator would misread cannot pass unnoticed (teach it the keyword).
 */

export type JsonSchema = Record<string, unknown>;

const UNDERSTOOD = new Set([
  "type",
  "properties",
  "required",
  "items",
  "additionalProperties",
  "enum",
  "const",
  "default",
  "description",
  "format",
  "pattern",
  "minLength",
  "maxLength",
  "minimum",
  "maximum",
  "multipleOf",
  "minItems",
  "maxItems",
  "contentMediaType",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "anyOf",
  "oneOf",
  // Annotations only.
  "title",
  "examples",
  "deprecated",
  "readOnly",
  "writeOnly",
]);

/** Formats with a generator of their own; any other format is an error until taught. */
const FORMATS: Record<string, fc.Arbitrary<string>> = {
  "date-time": fc
    .date({
      min: new Date("2000-01-01T00:00:00Z"),
      max: new Date("2100-01-01T00:00:00Z"),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString()),
  date: fc
    .date({
      min: new Date("2000-01-01T00:00:00Z"),
      max: new Date("2100-01-01T00:00:00Z"),
      noInvalidDate: true,
    })
    .map((date) => date.toISOString().slice(0, 10)),
  uri: fc.webUrl(),
  uuid: fc.uuid(),
};

/** Known values for fields and parameters by name (real ids), mixed into what is generated for them. */
export type Examples = Readonly<Record<string, readonly string[]>>;

function checkKeywords(schema: JsonSchema, where: string): void {
  for (const keyword of Object.keys(schema)) {
    if (!UNDERSTOOD.has(keyword))
      throw new Error(
        `${where}: the request generator does not understand the JSON Schema keyword "${keyword}"`,
      );
  }
}

/** The longest text generated for a field without a smaller limit: long values have their own invalid cases. */
const TYPICAL_LENGTH = 40;
/** The most items generated for a list without a smaller limit. */
const TYPICAL_ITEMS = 4;

/** An address that both JSON Schema's `format: email` and the server's check accept. */
const email = (maxLength: number) =>
  fc
    .tuple(
      fc.stringMatching(/^[a-z][a-z0-9.+_-]{0,15}[a-z0-9]$/),
      fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z]$/),
    )
    .map(([local, domain]) => `${local.replace(/\.{2,}/g, ".")}@${domain}.example`)
    .filter((value) => value.length <= maxLength);

function validString(schema: JsonSchema, name: string, examples: Examples): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.max(
    minLength,
    Math.min((schema.maxLength as number | undefined) ?? TYPICAL_LENGTH, TYPICAL_LENGTH),
  );
  let generated: fc.Arbitrary<string>;
  if (schema.format === "email") generated = email((schema.maxLength as number | undefined) ?? 254);
  else if (typeof schema.format === "string") {
    const format = FORMATS[schema.format];
    if (!format)
      throw new Error(`the request generator does not understand the format "${schema.format}"`);
    generated = format;
  } else if (typeof schema.pattern === "string")
    generated = fc
      .stringMatching(new RegExp(schema.pattern))
      .filter(
        (value) =>
          value.length >= minLength &&
          value.length <= ((schema.maxLength as number | undefined) ?? Infinity),
      );
  else
    generated = fc.oneof(
      { weight: 3, arbitrary: fc.string({ minLength, maxLength }) },
      // Any script, kept within the limit as the server counts it (UTF-16 units).
      {
        weight: 1,
        arbitrary: fc
          .string({ minLength, maxLength, unit: "grapheme" })
          .filter((value) => value.length <= maxLength),
      },
    );
  const known = (examples[name] ?? []).filter((value) => value.length >= minLength);
  // Mostly the known values, so that valid requests get past the lookups to the work.
  return known.length > 0
    ? fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...known) },
        { weight: 1, arbitrary: generated },
      )
    : generated;
}

function validNumber(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  // An exclusive bound is kept clear of by a whole step for integers, a cent otherwise.
  const gap = integer ? 1 : 0.01;
  const min =
    (schema.minimum as number | undefined) ??
    ((schema.exclusiveMinimum as number | undefined) ?? -1_000_000 - gap) + gap;
  const max =
    (schema.maximum as number | undefined) ??
    ((schema.exclusiveMaximum as number | undefined) ?? 1_000_000 + gap) - gap;
  const step = schema.multipleOf as number | undefined;
  if (step)
    return fc
      .integer({ min: Math.ceil(min / step), max: Math.floor(max / step) })
      .map((k) => k * step);
  if (integer) return fc.integer({ min, max });
  return fc.oneof(
    fc.integer({ min: Math.ceil(min), max: Math.floor(max) }),
    fc.double({ min, max, noNaN: true, noDefaultInfinity: true }),
  );
}

/** Values the schema admits. `name` is the field's or parameter's name (for `examples`). */
export function validValue(
  schema: JsonSchema,
  name: string,
  examples: Examples = {},
  where = name,
): fc.Arbitrary<unknown> {
  checkKeywords(schema, where);
  if ("const" in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches)
    return fc.oneof(
      ...branches.map((branch, i) => validValue(branch, name, examples, `${where}|${i}`)),
    );
  // A list of types (a number or a numeric string, say) is one branch a type, the other keywords kept.
  if (Array.isArray(schema.type))
    return fc.oneof(
      ...(schema.type as string[]).map((type) =>
        validValue({ ...schema, type }, name, examples, `${where}|${type}`),
      ),
    );
  switch (schema.type) {
    case "null":
      return fc.constant(null);
    case undefined:
      return fc.jsonValue({ maxDepth: 2 });
    case "string":
      return validString(schema, name, examples);
    case "integer":
      return validNumber(schema, true);
    case "number":
      return validNumber(schema, false);
    case "boolean":
      return fc.boolean();
    case "array": {
      const minLength = (schema.minItems as number | undefined) ?? 0;
      const maxLength = Math.max(
        minLength,
        Math.min((schema.maxItems as number | undefined) ?? TYPICAL_ITEMS, TYPICAL_ITEMS),
      );
      return fc.array(
        validValue((schema.items ?? {}) as JsonSchema, name, examples, `${where}[]`),
        { minLength, maxLength },
      );
    }
    case "object":
      return validObject(schema, examples, where);
    default:
      throw new Error(
        `${where}: the request generator does not understand type ${JSON.stringify(schema.type)}`,
      );
  }
}

function validObject(
  schema: JsonSchema,
  examples: Examples,
  where: string,
): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = (schema.required ?? []) as string[];
  const model = Object.fromEntries(
    Object.entries(properties).map(([key, property]) => [
      key,
      validValue(property, key, examples, `${where}.${key}`),
    ]),
  );
  return fc.record(model, { requiredKeys: required.filter((key) => key in properties) });
}

/** How a value can break its schema, with what breaks it (for the report). */
export interface Violation {
  why: string;
  value: unknown;
}

/** Values of the wrong JSON type for any field. */
const WRONG_TYPE_VALUES: unknown[] = [
  null,
  true,
  42,
  -1.5,
  "text",
  [],
  {},
  ["nested"],
  { $gt: "" },
];

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  return typeof value;
}

function admitsType(schema: JsonSchema, value: unknown): boolean {
  const type = typeOf(value);
  if (schema.type === undefined) return true;
  if (schema.type === "number") return type === "number" || type === "integer";
  return schema.type === type;
}

/**
 * Values the schema does not admit: the wrong type, past a length or a bound,
 * outside an enum, not matching a pattern or a format. Empty when the schema
 * admits anything.
 */
export function invalidValues(schema: JsonSchema, oversized: string): Violation[] {
  const violations: Violation[] = [];
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (branches) {
    // Only values of a type no branch takes are surely invalid.
    for (const value of WRONG_TYPE_VALUES) {
      if (!branches.some((branch) => branch.type === undefined || admitsType(branch, value)))
        violations.push({ why: `a ${typeOf(value)}, which no alternative takes`, value });
    }
    return violations;
  }
  if (schema.type === undefined && !("const" in schema) && !Array.isArray(schema.enum))
    return violations;
  for (const value of WRONG_TYPE_VALUES) {
    if (!admitsType(schema, value))
      violations.push({ why: `a ${typeOf(value)} where a ${String(schema.type)} goes`, value });
  }
  if (Array.isArray(schema.enum) || "const" in schema)
    violations.push({ why: "a value outside the enum", value: "no-such-value" });
  if (typeof schema.maxLength === "number") {
    violations.push({
      why: "one character past maxLength",
      value: "x".repeat(schema.maxLength + 1),
    });
    violations.push({ why: "a string far past maxLength", value: oversized });
  }
  if (typeof schema.minLength === "number" && schema.minLength > 0)
    violations.push({ why: "shorter than minLength", value: "" });
  if (typeof schema.format === "string")
    violations.push({ why: `not a ${schema.format}`, value: `not-a-${schema.format}` });
  if (typeof schema.pattern === "string")
    violations.push({ why: "not matching the pattern", value: "!! not $ matching !!" });
  if (typeof schema.minimum === "number")
    violations.push({ why: "below the minimum", value: schema.minimum - 1 });
  if (typeof schema.exclusiveMinimum === "number")
    violations.push({ why: "at the exclusive minimum", value: schema.exclusiveMinimum });
  if (typeof schema.exclusiveMaximum === "number")
    violations.push({ why: "at the exclusive maximum", value: schema.exclusiveMaximum });
  if (typeof schema.maximum === "number")
    violations.push({ why: "above the maximum", value: schema.maximum + 1 });
  if (typeof schema.multipleOf === "number")
    violations.push({
      why: "not a multiple",
      value: ((schema.minimum as number | undefined) ?? 0) + schema.multipleOf / 2,
    });
  if (schema.type === "integer") violations.push({ why: "a fraction", value: 1.5 });
  if (schema.type === "number" || schema.type === "integer")
    violations.push(
      { why: "an absurd number", value: 1e308 },
      { why: "a negative number", value: -1 },
    );
  if (typeof schema.minItems === "number" && schema.minItems > 0)
    violations.push({ why: "fewer than minItems", value: [] });
  if (typeof schema.maxItems === "number")
    violations.push({
      why: "more than maxItems",
      value: Array.from({ length: schema.maxItems + 1 }, (_, i) => `item-${i}`),
    });
  if (schema.type === "array" && schema.items) {
    for (const inner of invalidValues(schema.items as JsonSchema, oversized).slice(0, 4))
      violations.push({ why: `an item that is ${inner.why}`, value: [inner.value] });
  }
  return violations;
}
