import fc from "fast-check";
import { z } from "zod";
import type { OpenApiDocument, Operation } from "~/routes/api+/openapi.server";
import { ORIGIN } from "#tests/setup/requests";
import { BOGUS_IDS, HUGE, LONG, MALFORMED_JSON, WRONG_SHAPES } from "./payloads";
import type { Examples, JsonSchema, Violation } from "./schema-arbitraries";
import { invalidValues, validValue } from "./schema-arbitraries";

/**
 * Requests generated from the OpenAPI document, for every operation it lists:
 * valid ones built from each operation's schemas, and deliberately invalid
 * ones (wrong types, missing fields, strings past their limit, bad path
 * parameters, malformed JSON, wrong content types), each without credentials,
 * with a bearer token, with the session cookie where the operation takes it,
 * or with a bearer token that is not valid. Every answer is checked against
 * the document: no 5xx, a status the operation documents, and a body of the
 * documented media type that matches the documented schema. A fixed seed makes
 * the same requests on every run, so a failure reproduces.
 */

export interface DocumentOperation {
  /** `METHOD /path/{param}` */
  key: string;
  method: string;
  template: string;
  operation: Operation;
}

export function documentOperations(document: OpenApiDocument): DocumentOperation[] {
  return Object.entries(document.paths).flatMap(([template, byMethod]) =>
    Object.entries(byMethod).map(([method, operation]) => ({
      key: `${method.toUpperCase()} ${template}`,
      method: method.toUpperCase(),
      template,
      operation,
    })),
  );
}

/** Whose credentials a request carries: the caller the operation is for (the admin on admin routes), or someone else. */
export type Who = "caller" | "other";
export type Auth =
  { kind: "none" } | { kind: "bearer" | "cookie"; who: Who } | { kind: "bad-bearer" };

type Body =
  | { kind: "json"; value: unknown }
  | { kind: "raw"; text: string; contentType?: string }
  | { kind: "file"; field: string; bytes: Uint8Array; type: string }
  | { kind: "form"; fields: Record<string, string> };

export interface GeneratedRequest {
  /** What the request is: `valid`, or which part is wrong and how. */
  label: string;
  params: Record<string, string>;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: Body;
  auth: Auth;
}

interface Parameter {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  schema: JsonSchema;
}

const parametersOf = (operation: Operation) =>
  (operation.parameters ?? []) as unknown as Parameter[];

/** A parameter's value as it travels: text. */
const asText = (value: unknown) => (typeof value === "string" ? value : JSON.stringify(value));

function bodyContent(operation: Operation): { type: string; schema: JsonSchema } | undefined {
  const [entry] = Object.entries(operation.requestBody?.content ?? {});
  return entry ? { type: entry[0], schema: (entry[1].schema ?? {}) as JsonSchema } : undefined;
}

/** The credentials a request of the operation carries: mostly the caller's, else none, someone else's or a bad token. */
function authArbitrary(operation: Operation): fc.Arbitrary<Auth> {
  const schemes = new Set(operation.security.flatMap((requirement) => Object.keys(requirement)));
  const choices: fc.WeightedArbitrary<Auth>[] = [
    { weight: 2, arbitrary: fc.constant({ kind: "none" }) },
  ];
  if (schemes.has("bearerAuth"))
    choices.push(
      { weight: 4, arbitrary: fc.constant({ kind: "bearer", who: "caller" }) },
      { weight: 1, arbitrary: fc.constant({ kind: "bearer", who: "other" }) },
      { weight: 1, arbitrary: fc.constant({ kind: "bad-bearer" }) },
    );
  if (schemes.has("sessionCookie"))
    choices.push(
      { weight: 2, arbitrary: fc.constant({ kind: "cookie", who: "caller" }) },
      { weight: 1, arbitrary: fc.constant({ kind: "cookie", who: "other" }) },
    );
  return fc.oneof(...choices);
}

export interface GeneratorOptions {
  /** Known values for fields and parameters by name (real ids), so valid requests reach past the lookups. */
  examples?: Examples;
  /** Files for an upload, valid or not. */
  files?: readonly { bytes: Uint8Array; type: string }[];
}

/** Requests the operation documents as valid (the credentials vary). */
function validRequest(
  op: DocumentOperation,
  options: GeneratorOptions,
): fc.Arbitrary<GeneratedRequest> {
  const examples = options.examples ?? {};
  const parameters = parametersOf(op.operation);
  const param = (place: Parameter["in"]) =>
    fc.record(
      Object.fromEntries(
        parameters
          .filter((parameter) => parameter.in === place)
          .map((parameter) => [
            parameter.name,
            validValue(parameter.schema, parameter.name, examples, `${op.key} ${parameter.name}`)
              .map(asText)
              // An empty segment is another path altogether.
              .map((value) => (place === "path" && value === "" ? "-" : value)),
          ]),
      ),
      {
        requiredKeys: parameters
          .filter((parameter) => parameter.in === place && parameter.required)
          .map((parameter) => parameter.name),
      },
    ) as fc.Arbitrary<Record<string, string>>;
  const content = bodyContent(op.operation);
  let body: fc.Arbitrary<Body | undefined> = fc.constant(undefined);
  if (content?.type === "application/json")
    body = validValue(content.schema, "(body)", examples, `${op.key} body`).map((value) => ({
      kind: "json",
      value,
    }));
  if (content?.type === "multipart/form-data") {
    const field = Object.keys((content.schema.properties ?? {}) as object)[0] ?? "file";
    const files = options.files ?? [
      { bytes: new Uint8Array([0xff, 0xd8, 0xff]), type: "image/jpeg" },
    ];
    body = fc.constantFrom(...files).map((file) => ({ kind: "file", field, ...file }));
  }
  return fc.record({
    label: fc.constant("valid"),
    params: param("path"),
    query: param("query"),
    headers: param("header"),
    body,
    auth: authArbitrary(op.operation),
  }) as fc.Arbitrary<GeneratedRequest>;
}

type Mutation = { why: string; apply: (request: GeneratedRequest) => GeneratedRequest };

function withValueAt(target: unknown, path: (string | number)[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [key, ...rest] = path;
  const container = (
    typeof key === "number"
      ? Array.isArray(target)
        ? [...(target as unknown[])]
        : []
      : typeof target === "object" && target !== null && !Array.isArray(target)
        ? { ...(target as object) }
        : {}
  ) as Record<string | number, unknown>;
  if (value === undefined && rest.length === 0) delete container[key];
  else container[key] = withValueAt(container[key], rest, value);
  return container;
}

/** Every field of a body schema with its path, nested objects and the first item of lists included. */
function fieldsOf(
  schema: JsonSchema,
  path: (string | number)[] = [],
): { path: (string | number)[]; schema: JsonSchema; required: boolean }[] {
  const fields: { path: (string | number)[]; schema: JsonSchema; required: boolean }[] = [];
  const required = (schema.required ?? []) as string[];
  for (const [name, property] of Object.entries(
    (schema.properties ?? {}) as Record<string, JsonSchema>,
  )) {
    const at = [...path, name];
    fields.push({ path: at, schema: property, required: required.includes(name) });
    if (property.type === "object") fields.push(...fieldsOf(property, at));
    const items = property.items as JsonSchema | undefined;
    if (property.type === "array" && items?.type === "object")
      fields.push(...fieldsOf(items, [...at, 0]));
  }
  return fields;
}

const jsonValueOf = (request: GeneratedRequest) =>
  request.body?.kind === "json" ? request.body.value : {};
const invalid = (
  why: string,
  request: GeneratedRequest,
  change: Partial<GeneratedRequest>,
): GeneratedRequest => ({
  ...request,
  ...change,
  label: `invalid: ${why}`,
});

/** The ways to break a valid request of the operation, each one part at a time. */
function mutationsOf(op: DocumentOperation): Mutation[] {
  const mutations: Mutation[] = [];
  const violations = (schema: JsonSchema) => invalidValues(schema, LONG);
  for (const parameter of parametersOf(op.operation)) {
    const place =
      parameter.in === "path" ? "params" : parameter.in === "query" ? "query" : "headers";
    const set = (why: string, value: string | undefined) =>
      mutations.push({
        why: `${parameter.in} ${parameter.name}: ${why}`,
        apply: (request) => {
          const values = { ...request[place] };
          if (value === undefined) delete values[parameter.name];
          else values[parameter.name] = value;
          return invalid(`${parameter.in} ${parameter.name}: ${why}`, request, { [place]: values });
        },
      });
    const bad: Violation[] = violations(parameter.schema);
    if (parameter.in === "path")
      bad.push(...BOGUS_IDS.map((value) => ({ why: "a bogus id", value })));
    for (const { why, value } of bad) set(why, asText(value));
    if (parameter.in !== "path" && parameter.required) set("missing", undefined);
  }
  const content = bodyContent(op.operation);
  if (content?.type === "application/json") {
    const rawBody = (why: string, text: string, contentType = "application/json") =>
      mutations.push({
        why,
        apply: (request) => invalid(why, request, { body: { kind: "raw", text, contentType } }),
      });
    for (const field of fieldsOf(content.schema)) {
      const name = field.path.join(".");
      for (const { why, value } of violations(field.schema))
        mutations.push({
          why: `${name}: ${why}`,
          apply: (request) =>
            invalid(`${name}: ${why}`, request, {
              body: { kind: "json", value: withValueAt(jsonValueOf(request), field.path, value) },
            }),
        });
      if (field.required)
        mutations.push({
          why: `${name}: missing`,
          apply: (request) =>
            invalid(`${name}: missing`, request, {
              body: {
                kind: "json",
                value: withValueAt(jsonValueOf(request), field.path, undefined),
              },
            }),
        });
    }
    for (const text of [...MALFORMED_JSON, ...WRONG_SHAPES])
      rawBody(`malformed or misshapen JSON ${JSON.stringify(text.slice(0, 20))}`, text);
    rawBody("an empty body", "");
    rawBody("a body past the size limit", JSON.stringify({ padding: HUGE }));
    mutations.push({
      why: "JSON sent as text/plain",
      apply: (request) =>
        invalid("JSON sent as text/plain", request, {
          body: {
            kind: "raw",
            text: JSON.stringify(jsonValueOf(request)),
            contentType: "text/plain",
          },
        }),
    });
    mutations.push({
      why: "an unknown field",
      apply: (request) =>
        invalid("an unknown field", request, {
          body: {
            kind: "json",
            value: withValueAt(jsonValueOf(request), ["unexpected"], { nested: true }),
          },
        }),
    });
  }
  if (content?.type === "multipart/form-data") {
    const field = Object.keys((content.schema.properties ?? {}) as object)[0] ?? "file";
    const file = (why: string, body: Body) =>
      mutations.push({ why, apply: (request) => invalid(why, request, { body }) });
    file("an empty form", { kind: "form", fields: {} });
    file("the file in another field", {
      kind: "file",
      field: "other",
      bytes: new Uint8Array([0xff, 0xd8, 0xff, 0xe0]),
      type: "image/jpeg",
    });
    file("text, not an image", {
      kind: "file",
      field,
      bytes: new TextEncoder().encode("not an image at all"),
      type: "image/png",
    });
    file("an empty file", { kind: "file", field, bytes: new Uint8Array(), type: "image/png" });
    file("a text field instead of a file", { kind: "form", fields: { [field]: "not a file" } });
    file("JSON instead of a form", {
      kind: "raw",
      text: '{"image":"x"}',
      contentType: "application/json",
    });
    file("a multipart type without a body", {
      kind: "raw",
      text: "",
      contentType: "multipart/form-data; boundary=x",
    });
    file("a broken multipart body", {
      kind: "raw",
      text: '--x\r\nContent-Disposition: form-data; name="image"\r\n\r\nabc',
      contentType: "multipart/form-data; boundary=x",
    });
  }
  if (op.method !== "GET")
    mutations.push({
      why: "sent from another site",
      apply: (request) =>
        invalid("sent from another site", request, {
          headers: { ...request.headers, Origin: "https://evil.example" },
        }),
    });
  return mutations;
}

/** Valid and invalid requests for one operation (about two invalid for one valid). */
export function requestArbitrary(
  op: DocumentOperation,
  options: GeneratorOptions = {},
): fc.Arbitrary<GeneratedRequest> {
  const valid = validRequest(op, options);
  const mutations = mutationsOf(op);
  if (mutations.length === 0) return valid;
  return fc.oneof(
    { weight: 1, arbitrary: valid },
    {
      weight: 2,
      arbitrary: fc
        .tuple(valid, fc.constantFrom(...mutations))
        .map(([request, mutation]) => mutation.apply(request)),
    },
  );
}

/** A stable number for a text (FNV-1a), so each operation keeps its own requests when others are added. */
function hashOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** The requests for one operation under a seed: the same ones on every run. */
export function generateRequests(
  op: DocumentOperation,
  seed: number,
  count: number,
  options: GeneratorOptions = {},
): GeneratedRequest[] {
  return fc.sample(requestArbitrary(op, options), {
    seed: (seed ^ hashOf(op.key)) | 0,
    numRuns: count,
  });
}

export interface Credentials {
  token: string;
  cookie: string;
}

/** Builds the Request a client would send. */
export function buildRequest(
  op: DocumentOperation,
  generated: GeneratedRequest,
  credentials?: Credentials,
): Request {
  const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(generated.params[name] ?? ""),
  );
  const url = new URL(path, ORIGIN);
  for (const [name, value] of Object.entries(generated.query)) url.searchParams.set(name, value);
  const headers = new Headers();
  // A browser sends Origin on every request that changes something.
  if (op.method !== "GET") headers.set("Origin", ORIGIN);
  for (const [name, value] of Object.entries(generated.headers)) {
    try {
      headers.set(name, value);
    } catch {
      // A value no client can send as a header (a line break, a character past Latin-1).
      headers.set(name, encodeURIComponent(value));
    }
  }
  const auth = generated.auth;
  if (auth.kind === "bad-bearer") headers.set("Authorization", "Bearer not-a-valid-token");
  if (auth.kind === "bearer" && credentials)
    headers.set("Authorization", `Bearer ${credentials.token}`);
  if (auth.kind === "cookie" && credentials) headers.set("Cookie", credentials.cookie);
  let body: BodyInit | undefined;
  const sent = generated.body;
  if (sent?.kind === "json") {
    body = JSON.stringify(sent.value);
    headers.set("Content-Type", "application/json");
  } else if (sent?.kind === "raw") {
    body = sent.text;
    if (sent.contentType) headers.set("Content-Type", sent.contentType);
  } else if (sent?.kind === "file") {
    const form = new FormData();
    form.append(
      sent.field,
      new Blob([new Uint8Array(sent.bytes)], { type: sent.type }),
      "upload.bin",
    );
    body = form;
  } else if (sent?.kind === "form") {
    const form = new FormData();
    for (const [name, value] of Object.entries(sent.fields)) form.append(name, value);
    body = form;
  }
  return new Request(url, {
    method: op.method,
    headers,
    body: op.method === "GET" ? undefined : body,
  });
}

/** A short account of a request for a report: enough to make it again. */
export function describeRequest(op: DocumentOperation, generated: GeneratedRequest): string {
  const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) =>
    encodeURIComponent(generated.params[name] ?? ""),
  );
  const query = new URLSearchParams(generated.query).toString();
  const auth =
    generated.auth.kind === "bearer" || generated.auth.kind === "cookie"
      ? `${generated.auth.kind} (${generated.auth.who})`
      : generated.auth.kind;
  const body =
    generated.body === undefined
      ? ""
      : ` body=${JSON.stringify(generated.body.kind === "json" ? generated.body.value : generated.body.kind === "raw" ? generated.body.text : generated.body.kind).slice(0, 160)}`;
  return `${op.method} ${path.slice(0, 160)}${query ? `?${query.slice(0, 160)}` : ""} [${auth}] ${generated.label}${body}`;
}

const validators = new Map<string, z.ZodType>();

function resolveRefs(schema: unknown, document: OpenApiDocument): unknown {
  if (Array.isArray(schema)) return schema.map((item) => resolveRefs(item, document));
  if (typeof schema !== "object" || schema === null) return schema;
  const ref = (schema as { $ref?: string }).$ref;
  if (typeof ref === "string") {
    const match = /^#\/components\/schemas\/(.+)$/.exec(ref);
    if (!match) throw new Error(`Cannot resolve ${ref}`);
    return resolveRefs(document.components.schemas[match[1]], document);
  }
  return Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, resolveRefs(value, document)]),
  );
}

function validatorFor(schema: unknown, document: OpenApiDocument): z.ZodType {
  const key = JSON.stringify(schema);
  let validator = validators.get(key);
  if (!validator) {
    validator = z.fromJSONSchema(
      resolveRefs(schema ?? {}, document) as z.core.JSONSchema.JSONSchema,
    );
    validators.set(key, validator);
  }
  return validator;
}

/**
 * What is wrong with an answer, by the document: a 5xx (documented or not),
 * a status the operation does not document, a body of another media type, a
 * JSON body that does not match its schema, a body where none is documented,
 * or a documented header (Location, Retry-After) missing. Empty when nothing is.
 */
export async function answerProblems(
  document: OpenApiDocument,
  op: DocumentOperation,
  response: Response,
): Promise<string[]> {
  const problems: string[] = [];
  const body = await response.text();
  if (response.status >= 500)
    problems.push(`server error ${response.status}: ${body.slice(0, 200)}`);
  const documented = op.operation.responses[String(response.status)] as
    | { content?: Record<string, { schema?: unknown }>; headers?: Record<string, unknown> }
    | undefined;
  if (!documented) {
    problems.push(
      `status ${response.status} is not documented (documented: ${Object.keys(op.operation.responses).join(", ")}): ${body.slice(0, 200)}`,
    );
    return problems;
  }
  for (const header of Object.keys(documented.headers ?? {})) {
    if (!response.headers.has(header))
      problems.push(`status ${response.status} without its documented ${header} header`);
  }
  const mediaType = (response.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (!documented.content) {
    if (body.length > 0)
      problems.push(
        `status ${response.status} documents no body, but one came (${mediaType}): ${body.slice(0, 200)}`,
      );
    return problems;
  }
  const content = documented.content[mediaType];
  if (!content) {
    problems.push(
      `status ${response.status} answered ${mediaType || "no Content-Type"}, documented: ${Object.keys(documented.content).join(", ")}`,
    );
    return problems;
  }
  if (mediaType === "application/json") {
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      problems.push(`status ${response.status}: the body is not JSON: ${body.slice(0, 200)}`);
      return problems;
    }
    const result = validatorFor(content.schema, document).safeParse(value);
    if (!result.success)
      problems.push(
        `status ${response.status}: the body does not match its schema (${result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}): ${body.slice(0, 200)}`,
      );
  }
  return problems;
}

export interface Problem {
  operation: string;
  request: string;
  problem: string;
}

export interface Report {
  operations: number;
  requests: number;
  /** How many answers had each status. */
  statuses: Record<number, number>;
  /** The same, by operation. */
  statusesByOperation: Record<string, Record<number, number>>;
  /** Requests answered 5xx (or that threw, which a server answers 500). */
  serverErrors: number;
  /** Requests answered with a status, media type, body or header the document does not give. */
  undocumented: number;
  problems: Problem[];
  /** Requests valid by the document that were answered 400: where the document says less than the route checks. */
  validRefused: { request: string; answer: string }[];
}

export interface RunOptions extends GeneratorOptions {
  document: OpenApiDocument;
  seed: number;
  requestsPerOperation: number;
  /** Answers one request as the server does. */
  handle: (
    op: DocumentOperation,
    request: Request,
    params: Record<string, string>,
  ) => Promise<Response>;
  /** Fresh credentials for the caller of an operation (by its x-access) or for someone else. */
  credentials: (who: Who, access: string) => Promise<Credentials>;
  /** Only these operations (default: every one). */
  only?: (op: DocumentOperation) => boolean;
  /** The longest wait for one answer before it counts as a hang (a guard, not a speed check). */
  hangAfterMs?: number;
}

/** Sends every operation's generated requests through `handle` and checks every answer against the document. */
export async function runGeneratedRequests(options: RunOptions): Promise<Report> {
  const report: Report = {
    operations: 0,
    requests: 0,
    statuses: {},
    statusesByOperation: {},
    serverErrors: 0,
    undocumented: 0,
    problems: [],
    validRefused: [],
  };
  for (const op of documentOperations(options.document).filter(options.only ?? (() => true))) {
    report.operations += 1;
    const access = op.operation["x-access"];
    for (const generated of generateRequests(
      op,
      options.seed,
      options.requestsPerOperation,
      options,
    )) {
      report.requests += 1;
      const auth = generated.auth;
      const credentials =
        auth.kind === "bearer" || auth.kind === "cookie"
          ? await options.credentials(auth.who, access)
          : undefined;
      const request = buildRequest(op, generated, credentials);
      const described = describeRequest(op, generated);
      let response: Response;
      try {
        response = await withHangGuard(
          options.handle(op, request, generated.params),
          options.hangAfterMs ?? 20_000,
        );
      } catch (error) {
        report.serverErrors += 1;
        count(report, op, 500);
        report.problems.push({
          operation: op.key,
          request: described,
          problem: `threw (a server answers 500): ${error instanceof Error ? error.message : String(error)}`,
        });
        continue;
      }
      count(report, op, response.status);
      const problems = await answerProblems(options.document, op, response.clone());
      if (generated.label === "valid" && response.status === 400)
        report.validRefused.push({
          request: described,
          answer: (await response.text()).slice(0, 300),
        });
      if (response.status >= 500) report.serverErrors += 1;
      if (problems.some((problem) => !problem.startsWith("server error"))) report.undocumented += 1;
      for (const problem of problems)
        report.problems.push({ operation: op.key, request: described, problem });
    }
  }
  return report;
}

function count(report: Report, op: DocumentOperation, status: number): void {
  report.statuses[status] = (report.statuses[status] ?? 0) + 1;
  const byStatus = (report.statusesByOperation[op.key] ??= {});
  byStatus[status] = (byStatus[status] ?? 0) + 1;
}

async function withHangGuard<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, hang]);
  } finally {
    clearTimeout(timer);
  }
}
