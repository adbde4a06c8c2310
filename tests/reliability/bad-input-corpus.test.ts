import crypto from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getConfig } from "~/infra/config.server";
import { signResetToken } from "~/features/accounts/passwords/password-reset.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { insertReport } from "#tests/setup/reports";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { startEmailChange } from "~/features/accounts/profile/email-change.server";
import { createListing, createStylizedImage } from "#tests/setup/market";
import { createBundle } from "~/features/market/bundles/bundles.server";
import { createDiscount } from "~/features/market/discounts/discounts.server";
import { testCheckoutSale } from "#tests/setup/payouts";
import { fixture } from "#tests/setup/studio";
import { signPayload } from "#tests/mocks/stripe";
import { apiPaths, callApiRoute, HTTP_METHODS, loadRoute } from "./api-routes";
import { EMAIL_CHANGE_REQUESTED } from "~/features/accounts/profile/procedures.server";
import type { HttpMethod } from "./api-routes";
import { expectUnchanged, fingerprint } from "./db-fingerprint";
import type { Fingerprint } from "./db-fingerprint";
import {
  ABSURD_NUMBERS,
  BOGUS_IDS,
  HOSTILE_TEXT,
  HUGE,
  LONG,
  MALFORMED_JSON,
  LONE_SURROGATE,
  NUL,
  SCRIPT,
  SQL,
  WRONG_SHAPES,
  WRONG_TYPES,
} from "./payloads";
import {
  configure,
  freshCredentials,
  openRefundRequest,
  publishJobsIdle,
  startWorld,
  refundableListing,
  refundableSession,
  WALLET,
} from "./world";
import type { World } from "./world";
import { startAccountExport } from "~/features/accounts/exports/account-exports.server";
import { checkoutSessionHash } from "~/features/market/orders/orders.server";
import { apiRoute } from "#tests/setup/api-routes";
import { failedTestJob } from "#tests/setup/jobs";
import { RELEASE_DETAILS, ensureModelRelease } from "#tests/setup/model-releases";
import { newWebSessionId } from "#tests/setup/web-sessions";
import { updateWhere } from "#tests/setup/update-where";

const listingsRoute = apiRoute("/api/marketplace-listings");

/**
 * Every endpoint that takes input gets malformed JSON, JSON of the wrong
 * shape, wrong types, huge strings, unknown enum values, negative and absurd
 * numbers, SQL and HTML payloads, wrong content types, empty and oversized
 * multipart bodies and bogus ids, as a caller who is allowed to use it. Every answer is a 4xx with a JSON `{message}` (never a
 * 5xx), and a checksum of every table and of the stored files shows that
 * nothing changed. Text that only looks like HTML or SQL is valid text: where
 * it is accepted, it must come back as the same plain text in JSON.
 */

const WEBHOOK_SECRET = "whsec_reliability_corpus_secret";

interface Base {
  /** The path with `:name` placeholders for the route params. */
  path: string;
  params?: Record<string, string>;
  query?: Record<string, string>;
  json?: Record<string, unknown>;
}

interface Accept {
  in: "json" | "query";
  field: string;
  values: unknown[];
  /** What became of the value. `body` is the parsed answer. */
  check: (value: unknown, body: unknown) => void | Promise<void>;
  /** An accepted read changes nothing either. */
  unchanged?: boolean;
}

interface Target {
  route: string;
  method: HttpMethod;
  /** `fresh`: a new creator of its own for the base call and for each case (for a call that ends its caller's account). */
  as: "alice" | "admin" | "nobody" | "fresh";
  base: () => Base | Promise<Base>;
  /** What the valid base request answers (so the cases below really test the field they change). */
  baseStatus: number;
  /** The body is JSON (the malformed-body, shape and content-type cases apply). */
  json?: boolean;
  fields?: Record<string, unknown[]>;
  /** Body fields whose absence is refused. */
  required?: string[];
  query?: Record<string, unknown[]>;
  params?: Record<string, unknown[]>;
  accepts?: Accept[];
  /** Tables a refused call may still change by design (a failed sign-in is counted). */
  mayChange?: string[];
  /** Body fields every case gets afresh (an email that is not taken yet). */
  fresh?: () => Record<string, unknown>;
  /**
   * The client address the calls come from, for a target whose wrong passwords the sign-in
   * throttle counts: its failures then hold back only its own cases (429 past the limit), not
   * the other targets' password checks from the default address.
   */
  clientIp?: string;
  /** A longer limit than the suite's 30 s, for a target whose every case hashes a password twice. */
  timeoutMs?: number;
}

interface Case {
  name: string;
  request: (auth: { token?: string }) => Request;
  params: Record<string, string>;
  accept?: { check: (body: unknown) => void | Promise<void>; unchanged?: boolean };
}

let w: World;
let stopWorld: () => Promise<void>;
/** Alice's completed stylized images for the requests that need one: optimize, launch, post. */
const images: Record<"optimize" | "launch" | "post" | "stylize", string> = {
  optimize: "",
  launch: "",
  post: "",
  stylize: "",
};
let pendingStylizedId = "";

beforeAll(async () => {
  ({ w, stop: stopWorld } = await startWorld({ STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET }));
  for (const key of ["optimize", "launch", "post"] as const)
    images[key] = (await createStylizedImage(w.alice.user.id)).id;
  images.stylize = (await createStylizedImage(w.alice.user.id)).image_id;
  pendingStylizedId = (await createStylizedImage(w.alice.user.id, { status: "pending" })).id;
  await publishJobsIdle();
});
afterAll(async () => {
  await stopWorld();
});

/** Two $5 listings of Alice's that the bundle cases hold (made once). */
let bundleListings: string[] | undefined;
async function aliceBundleListings(): Promise<string[]> {
  bundleListings ??= [
    (await createListing(w.alice.user.id, { price: 5, title: "Corpus one" })).listing.id,
    (await createListing(w.alice.user.id, { price: 5, title: "Corpus two" })).listing.id,
  ];
  return bundleListings;
}

/** Stands for the id of Alice's stylized image that is not completed yet (made in beforeAll). */
const PENDING = "<pending stylized image>";

function setPath(
  target: Record<string, unknown>,
  dotted: string,
  given: unknown,
): Record<string, unknown> {
  const value = given === PENDING ? pendingStylizedId : given;
  const copy = structuredClone(target);
  const keys = dotted.split(".");
  let node = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== "object" || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  if (value === undefined) delete node[keys[keys.length - 1]];
  else node[keys[keys.length - 1]] = value;
  return copy;
}

function urlOf(
  base: Base,
  query: Record<string, string> = base.query ?? {},
  params: Record<string, string> = base.params ?? {},
): string {
  const path = base.path.replace(/:(\w+)/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ""),
  );
  const search = new URLSearchParams(query).toString();
  return search ? `${path}?${search}` : path;
}

function describeValue(value: unknown): string {
  const text =
    typeof value === "string" ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value));
  return text.length > 40 ? `${text.slice(0, 30)}… (${text.length} chars)` : text;
}

/** The cases of one target, from its valid base request. */
function casesOf(target: Target, base: Base): Case[] {
  const method = target.method;
  const params = base.params ?? {};
  const cases: Case[] = [];
  const jsonRequest = (json: unknown) => (auth: { token?: string }) =>
    makeRequest(urlOf(base), { method, ...auth, json: withFresh(json) });
  const withFresh = (json: unknown) => {
    if (!target.fresh || typeof json !== "object" || json === null || Array.isArray(json))
      return json;
    const fields = target.fresh();
    // Only fields the case left as they were in the base are renewed.
    const renewed = Object.fromEntries(
      Object.entries(fields).filter(
        ([key]) => (json as Record<string, unknown>)[key] === base.json?.[key],
      ),
    );
    return { ...json, ...renewed };
  };
  const rawRequest =
    (body: BodyInit | undefined, headers: Record<string, string>, url = urlOf(base)) =>
    (auth: { token?: string }) =>
      makeRequest(url, { method, ...auth, body, headers });

  if (target.json) {
    const valid = base.json ?? {};
    for (const text of MALFORMED_JSON) {
      cases.push({
        name: `malformed JSON ${describeValue(text)}`,
        params,
        request: rawRequest(text, { "Content-Type": "application/json" }),
      });
    }
    for (const text of WRONG_SHAPES) {
      cases.push({
        name: `JSON of the wrong shape ${text}`,
        params,
        request: rawRequest(text, { "Content-Type": "application/json" }),
      });
    }
    cases.push({ name: "a JSON array of the valid body", params, request: jsonRequest([valid]) });
    cases.push({ name: "an empty body", params, request: rawRequest(undefined, {}) });
    cases.push({ name: "an empty object", params, request: jsonRequest({}) });
    const text = JSON.stringify(valid);
    const form = new URLSearchParams(
      Object.entries(valid).map(([key, value]) => [
        key,
        typeof value === "string" ? value : JSON.stringify(value),
      ]),
    );
    cases.push({
      name: "valid JSON sent as text/plain",
      params,
      request: rawRequest(text, { "Content-Type": "text/plain" }),
    });
    cases.push({
      name: "valid JSON with no content type",
      params,
      request: rawRequest(new Blob([text]), {}),
    });
    cases.push({
      name: "the fields form-urlencoded",
      params,
      request: rawRequest(form.toString(), { "Content-Type": "application/x-www-form-urlencoded" }),
    });
    cases.push({
      name: "the fields as multipart/form-data",
      params,
      request: (auth) => {
        const data = new FormData();
        for (const [key, value] of form) data.append(key, value);
        return makeRequest(urlOf(base), { method, ...auth, body: data });
      },
    });
    cases.push({
      name: "application/jsonp",
      params,
      request: rawRequest(text, { "Content-Type": "application/jsonp" }),
    });
    cases.push({
      name: "a 1.1 MB JSON body",
      params,
      request: jsonRequest({ ...valid, padding: HUGE }),
    });
    cases.push({
      name: "a declared length of 50 MB",
      params,
      request: rawRequest(text, {
        "Content-Type": "application/json",
        "Content-Length": String(50 * 1024 * 1024),
      }),
    });
    cases.push({
      name: "prototype keys",
      params,
      request: rawRequest(`{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}`, {
        "Content-Type": "application/json",
      }),
    });

    for (const field of target.required ?? []) {
      cases.push({
        name: `without ${field}`,
        params,
        request: jsonRequest(setPath(valid, field, undefined)),
      });
    }
    for (const [field, values] of Object.entries(target.fields ?? {})) {
      for (const value of values) {
        cases.push({
          name: `${field} = ${describeValue(value)}`,
          params,
          request: jsonRequest(setPath(valid, field, value)),
        });
      }
    }
  }
  for (const [field, values] of Object.entries(target.query ?? {})) {
    for (const value of values) {
      const query = { ...base.query, [field]: String(value) };
      cases.push({
        name: `?${field}=${describeValue(value)}`,
        params,
        request: (auth) =>
          makeRequest(urlOf(base, query), {
            method,
            ...auth,
            ...(base.json ? { json: base.json } : {}),
          }),
      });
    }
  }
  for (const [name, values] of Object.entries(target.params ?? {})) {
    for (const value of values) {
      const changed = { ...params, [name]: String(value) };
      cases.push({
        name: `:${name} = ${describeValue(value)}`,
        params: changed,
        request: (auth) =>
          makeRequest(urlOf(base, base.query, changed), {
            method,
            ...auth,
            ...(base.json ? { json: base.json } : {}),
          }),
      });
    }
  }
  for (const accept of target.accepts ?? []) {
    for (const value of accept.values) {
      const request =
        accept.in === "json"
          ? jsonRequest(setPath(base.json ?? {}, accept.field, value))
          : (auth: { token?: string }) =>
              makeRequest(urlOf(base, { ...base.query, [accept.field]: String(value) }), {
                method,
                ...auth,
              });
      cases.push({
        name: `accepted: ${accept.field} = ${describeValue(value)}`,
        params,
        request,
        accept: { check: (body) => accept.check(value, body), unchanged: accept.unchanged },
      });
    }
  }
  return cases;
}

/** Why an answer breaks the API's error rules (a 4xx with a JSON `{message}`), or null. */
async function problemWith(response: Response, text: string): Promise<string | null> {
  if (response.status >= 500) return `answered ${response.status}: ${text.slice(0, 200)}`;
  if (response.status < 400) return `was accepted (${response.status}): ${text.slice(0, 200)}`;
  if (!/^application\/json\b/.test(response.headers.get("Content-Type") ?? "")) {
    return `answered ${response.status} as ${response.headers.get("Content-Type")}`;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${response.status} with a body that is not JSON`;
  }
  const { message, fieldErrors, ...rest } = body as { message?: unknown; fieldErrors?: unknown };
  if (typeof message !== "string" || message === "")
    return `answered ${response.status} without a message: ${text.slice(0, 200)}`;
  if (Object.keys(rest).length > 0)
    return `answered ${response.status} with extra keys ${Object.keys(rest).join(", ")}`;
  if (fieldErrors !== undefined && (typeof fieldErrors !== "object" || fieldErrors === null))
    return "answered fieldErrors that are not an object";
  if (
    /SQLITE_|sqlite3|\bSELECT\b.*\bFROM\b|INSERT INTO|\n\s+at |\(\/|\/work\/|node_modules/.test(
      text,
    )
  )
    return `leaks internals: ${text.slice(0, 200)}`;
  return null;
}

/**
 * Calls the route, then why its answer breaks the API's error rules or what
 * it changed that it must not (`name: why`), or null.
 */
async function problemOfCall(name: string, call: () => Promise<Response>): Promise<string | null> {
  const before = await fingerprint();
  const response = await call();
  const answer = await response.text();
  const problem = await problemWith(response, answer);
  if (problem) return `${name}: ${problem}`;
  try {
    expectUnchanged(before, await fingerprint(), name);
  } catch (error) {
    return `${name}: ${String(error).split("\n")[0]}`;
  }
  return null;
}

async function credentialsOf(as: Target["as"]): Promise<{ token?: string }> {
  if (as === "nobody") return {};
  if (as === "fresh") return { token: (await createTestUser()).token };
  return {
    token: (await freshCredentials(as === "admin" ? w.admin.user.id : w.alice.user.id)).token,
  };
}

const routes = new Map(apiPaths().map((route) => [route.id, route]));

async function runTarget(target: Target) {
  const route = routes.get(target.route);
  expect(route, `no route file for ${target.route}`).toBeDefined();
  const module = await loadRoute(route!);
  const base = await target.base();
  const label = `${target.method} ${route!.pattern}`;
  const client = target.clientIp ? { clientIp: target.clientIp } : undefined;

  // The valid request works, so each case below is refused for what it changed.
  const ok = await callApiRoute(
    module,
    makeRequest(urlOf(base), {
      method: target.method,
      ...(await credentialsOf(target.as)),
      ...(base.json ? { json: base.json } : {}),
    }),
    base.params ?? {},
    client,
  );
  expect(ok.status, `${label} with valid input: ${(await ok.clone().text()).slice(0, 300)}`).toBe(
    target.baseStatus,
  );
  await publishJobsIdle();

  const problems: string[] = [];
  for (const testCase of casesOf(target, base)) {
    const auth = await credentialsOf(target.as);
    const before: Fingerprint = await fingerprint();
    let response: Response;
    try {
      response = await callApiRoute(module, testCase.request(auth), testCase.params, client);
    } catch (error) {
      problems.push(`${label} ${testCase.name}: threw ${String(error).slice(0, 200)}`);
      continue;
    }
    const text = await response.text();
    await publishJobsIdle();
    const after = await fingerprint();
    if (testCase.accept) {
      if (response.status < 200 || response.status >= 300) {
        problems.push(
          `${label} ${testCase.name}: expected to be accepted, answered ${response.status}: ${text.slice(0, 200)}`,
        );
        continue;
      }
      try {
        await testCase.accept.check(text ? JSON.parse(text) : null);
        if (testCase.accept.unchanged) expectUnchanged(before, after, `${label} ${testCase.name}`);
      } catch (error) {
        problems.push(`${label} ${testCase.name}: ${String(error).slice(0, 300)}`);
      }
      continue;
    }
    const problem = await problemWith(response, text);
    if (problem) {
      problems.push(`${label} ${testCase.name}: ${problem}`);
      continue;
    }
    try {
      expectUnchanged(before, after, `${label} ${testCase.name}`, target.mayChange);
    } catch (error) {
      problems.push(`${label} ${testCase.name}: ${String(error).split("\n")[0]}`);
    }
  }
  expect(problems).toEqual([]);
}

/** Alice's listing of a stylized image, as her own listings endpoint shows it. */
async function aliceListingOf(stylizedImageId: string) {
  const { token } = await freshCredentials(w.alice.user.id);
  const response = await callRoute(
    listingsRoute.loader,
    makeRequest("/api/marketplace-listings", { token }),
  );
  const listings = (await response.json()) as {
    stylizedImageId: string;
    title: string;
    description: string;
  }[];
  return listings.find((listing) => listing.stylizedImageId === stylizedImageId);
}

const STRING_FIELD = [...WRONG_TYPES, "", "   ", LONG];
const EMAIL_FIELD = [
  ...WRONG_TYPES,
  "",
  "not-an-email",
  "a@",
  ...HOSTILE_TEXT,
  LONG,
  NUL,
  `${LONE_SURROGATE}@example.com`,
];
const PASSWORD_FIELD = [...WRONG_TYPES, "", "12345", LONG];
/** A new account's fields (register, the admin's new user): each one required. */
const PERSON_FIELDS = {
  email: EMAIL_FIELD,
  password: PASSWORD_FIELD,
  firstName: STRING_FIELD,
  lastName: STRING_FIELD,
};
/** Text the answer gives back as it was sent, in its `field`. */
function echoes(field: string, values: unknown[]): Accept {
  return {
    in: "json",
    field,
    values,
    check: (value, body) => expect((body as Record<string, unknown>)[field]).toBe(value),
  };
}
const newEmail = () => `new-${crypto.randomBytes(4).toString("hex")}@example.com`;
const newCode = () => `CORPUS-${crypto.randomBytes(4).toString("hex")}`;

/**
 * For a target whose every case makes a new account (a password hash) and checks a password:
 * failed checks are counted (from `clientIp`, so they hold back only its own cases), and it gets 90 s.
 */
function checksPasswordsOfFreshAccounts(clientIp: string) {
  return { mayChange: ["auth_failures", "sqlite_sequence"], clientIp, timeoutMs: 90_000 };
}

/**
 * GET of one of Alice's images at `route` (its listed one: 200) or DELETE (of a fresh one: 204),
 * by the id `listed()` or `fresh(made)` picks.
 */
function aliceImageById(
  method: "GET" | "DELETE",
  route: string,
  listed: () => string,
  fresh: (made: { id: string; image_id: string }) => string,
): Target {
  const path = `/${route.replaceAll(".", "/").replace("$id", ":id")}`;
  return target(`${method} ${route} as alice`, method === "GET" ? 200 : 204, {
    base: async () => ({
      path,
      params: {
        id: method === "GET" ? listed() : fresh(await createStylizedImage(w.alice.user.id)),
      },
    }),
    params: { id: BOGUS_IDS },
  });
}

/** Alice's address and password, as a sign-in sends them. */
const aliceSignIn = () => ({ email: w.alice.email, password: w.alice.password });

/**
 * A form for a new person (a fresh address each time, and the names given) sent to
 * `path`: each of its fields is required, and each gets the person-field cases.
 */
function newPersonTarget(
  call: string,
  baseStatus: number,
  path: string,
  [firstName, lastName]: [string, string],
  details: Partial<TargetDetails> = {},
): Target {
  return jsonTarget(call, baseStatus, {
    base: () => ({
      path,
      json: { email: newEmail(), password: "long-enough", firstName, lastName },
    }),
    required: Object.keys(PERSON_FIELDS),
    fields: PERSON_FIELDS,
    fresh: () => ({ email: newEmail() }),
    ...details,
  });
}

/** A listing of `imageId` on the marketplace only, sent to `path`. */
function marketplaceListing(path: string, imageId: string, title: string, price: number): Base {
  return { path, json: { imageId, title, price, platforms: ["marketplace"] } };
}

type TargetDetails = Omit<Target, "route" | "method" | "as" | "baseStatus" | "json">;

/** A target called as `"<METHOD> <route> as <who>"`, whose valid base request answers `baseStatus`. */
function target(call: string, baseStatus: number, details: TargetDetails): Target {
  const match = /^(\w+) (\S+) as (alice|admin|nobody|fresh)$/.exec(call);
  if (!match) throw new Error(`Not "<METHOD> <route> as <who>": ${call}`);
  const [, method, route, as] = match;
  return { route, method: method as HttpMethod, as: as as Target["as"], baseStatus, ...details };
}

/** `target` with a JSON body (the malformed-body, shape and content-type cases apply). */
function jsonTarget(call: string, baseStatus: number, details: TargetDetails): Target {
  return { ...target(call, baseStatus, details), json: true };
}

const TARGETS: Target[] = [
  jsonTarget("POST api.token-login as nobody", 200, {
    base: () => ({ path: "/api/token-login", json: aliceSignIn() }),
    required: ["email", "password"],
    // Hostile passwords are well-formed wrong passwords: 401, and the failure is counted.
    fields: {
      email: EMAIL_FIELD,
      password: [...PASSWORD_FIELD, ...HOSTILE_TEXT],
      redirectTo: [...WRONG_TYPES.filter((v) => v !== null), HUGE.slice(0, 5000)],
    },
    mayChange: ["auth_failures", "sqlite_sequence"],
  }),
  // Registration is closed by default: a valid request is a 403, anything invalid a 400.
  newPersonTarget("POST api.register as nobody", 403, "/api/register", ["New", "Person"]),
  // An email without an account: accepted (202) and nothing is kept.
  jsonTarget("POST api.forgot-password as nobody", 202, {
    base: () => ({ path: "/api/forgot-password", json: { email: newEmail() } }),
    required: ["email"],
    fields: { email: EMAIL_FIELD },
    fresh: () => ({ email: newEmail() }),
  }),
  // A user of its own, whose valid link the base call uses up: each case after it is refused for
  // what it changed (a bad password before the token is looked at; a bad token with a good password).
  jsonTarget("POST api.reset-password as nobody", 204, {
    base: async () => {
      const { user } = await createTestUser();
      return {
        path: "/api/reset-password",
        json: {
          token: signResetToken(getConfig().appSecret, user, new Date()),
          password: "long-enough",
        },
      };
    },
    required: ["token", "password"],
    fields: {
      token: [
        ...STRING_FIELD,
        ...HOSTILE_TEXT,
        NUL,
        "a.b.c",
        "x.zzzzzzzzzzzz.y",
        `${"A".repeat(40)}.1.${"B".repeat(43)}`,
      ],
      password: [...PASSWORD_FIELD],
    },
  }),
  jsonTarget("PATCH api.account as alice", 200, {
    base: () => ({ path: "/api/account", json: { bio: "Portraits, styled." } }),
    fields: {
      firstName: [...STRING_FIELD, NUL],
      lastName: [...STRING_FIELD, NUL],
      handle: [
        ...WRONG_TYPES.filter((value) => value !== null),
        "ab",
        "a".repeat(31),
        "admin",
        "API",
        "under_score",
        "émile",
        ...HOSTILE_TEXT,
        NUL,
        LONG,
      ],
      bio: [...WRONG_TYPES.filter((value) => value !== null), "b".repeat(281), NUL, LONG],
    },
    accepts: [echoes("bio", HOSTILE_TEXT), echoes("firstName", HOSTILE_TEXT)],
  }),
  // A new account for the base call and each case: its wrong passwords are counted like failed
  // sign-ins, and one account's would slow down its later cases.
  // A link to a fresh address goes out (mail jobs) and waits; each refused case changes nothing.
  // An address another account has (Bob's, Alice's) is answered as a free one (it gets a notice
  // instead of the link).
  jsonTarget("POST api.account.email as fresh", 202, {
    base: () => ({
      path: "/api/account/email",
      json: { email: newEmail(), password: TEST_PASSWORD },
    }),
    required: ["email", "password"],
    fields: {
      email: [...EMAIL_FIELD],
      password: [...PASSWORD_FIELD, "not-the-password"],
    },
    accepts: [
      {
        in: "json",
        field: "email",
        values: ["bob@example.com", "alice@example.com"],
        check: (_value, body) => expect(body).toEqual({ message: EMAIL_CHANGE_REQUESTED }),
      },
    ],
    fresh: () => ({ email: newEmail() }),
    ...checksPasswordsOfFreshAccounts("198.51.100.61"),
  }),
  // The base call uses Alice's link (to the address she has); every case after it is refused.
  jsonTarget("POST api.account.email.confirm as alice", 200, {
    base: async () => ({
      path: "/api/account/email/confirm",
      json: {
        token: await getDb()
          .transaction()
          .execute((trx) => startEmailChange(trx, w.alice.user, w.alice.email, new Date())),
      },
    }),
    required: ["token"],
    fields: { token: [...STRING_FIELD, ...HOSTILE_TEXT, NUL, "x".repeat(43), "x".repeat(501)] },
  }),
  newPersonTarget("POST api.admin.users as admin", 201, "/api/admin/users", ["Made", "ByAdmin"], {
    accepts: [echoes("firstName", HOSTILE_TEXT)],
  }),
  target("GET api.admin.users as admin", 200, {
    base: () => ({ path: "/api/admin/users", query: { q: "alice" } }),
    query: { q: [LONG] },
    accepts: [
      {
        in: "query",
        field: "q",
        values: [SQL, SCRIPT, "%", "_", "\\", NUL],
        // Search text is text, not a pattern or SQL: only the users whose names hold it match (the cases above made some).
        check: (value, body) => {
          for (const user of body as { email: string; firstName: string; lastName: string }[]) {
            expect([user.email, user.firstName, user.lastName].join(" ").toLowerCase()).toContain(
              String(value).toLowerCase(),
            );
          }
        },
        unchanged: true,
      },
    ],
  }),
  target("GET api.admin.users.$userId as admin", 200, {
    base: () => ({ path: "/api/admin/users/:userId", params: { userId: w.alice.user.id } }),
    params: { userId: [...BOGUS_IDS, "super-admin' --"] },
  }),
  // Account erasure: the base call erases an account of its own; every refused case changes nothing.
  jsonTarget("DELETE api.account as fresh", 202, {
    base: () => ({ path: "/api/account", json: { password: TEST_PASSWORD } }),
    required: ["password"],
    // Hostile text is a well-formed wrong password: 400 (429 past the sign-in limits), nothing erased.
    fields: { password: [...PASSWORD_FIELD, ...HOSTILE_TEXT, NUL] },
    ...checksPasswordsOfFreshAccounts("198.51.100.62"),
  }),
  target("DELETE api.admin.users.$userId as admin", 202, {
    base: async () => ({
      path: "/api/admin/users/:userId",
      params: { userId: (await createTestUser()).user.id },
    }),
    params: { userId: [...BOGUS_IDS, "super-admin", "super-admin' --"] },
  }),
  target("POST api.admin.users.$userId.$action as admin", 200, {
    base: () => ({
      path: "/api/admin/users/:userId/:action",
      params: { userId: w.bob.user.id, action: "unban" },
    }),
    params: {
      userId: [...BOGUS_IDS, "super-admin"],
      action: ["delete", "BAN", "", SQL, "ban ", LONG],
    },
  }),
  target("GET api.admin.audit as admin", 200, {
    base: () => ({ path: "/api/admin/audit", query: { limit: "10" } }),
    query: {
      cursor: ["0", "-1", "1.5", "abc", SQL, SCRIPT, LONG],
      limit: ["0", "201", "-3", "x", SQL, LONG],
    },
  }),
  target("GET api.admin.orders as admin", 200, {
    base: () => ({ path: "/api/admin/orders", query: { q: "bea", status: "paid" } }),
    query: { q: [LONG], status: ["", "PAID", "paid ", "refund", "unknown", SQL, SCRIPT, LONG] },
    accepts: [
      {
        in: "query",
        field: "q",
        values: [SQL, SCRIPT, "%", "_", "\\", NUL],
        // Search text is text, not a pattern or SQL: an order matches by its exact id or an email holding it.
        check: (value, body) => {
          for (const order of body as { id: string; customerEmail: string }[]) {
            expect(
              order.id === value ||
                order.customerEmail.toLowerCase().includes(String(value).toLowerCase()),
            ).toBe(true);
          }
        },
        unchanged: true,
      },
    ],
  }),
  target("GET api.admin.jobs as admin", 200, {
    base: () => ({ path: "/api/admin/jobs" }),
  }),
  ...(["retry", "cancel"] as const).map((action) => ({
    route: `api.admin.jobs.$jobId.${action}`,
    method: "POST" as const,
    as: "admin" as const,
    // A failed job of its own, which the base call retries or cancels: every case after it names no job.
    baseStatus: 200,
    base: async () => ({
      path: `/api/admin/jobs/:jobId/${action}`,
      params: { jobId: await failedTestJob() },
    }),
    params: { jobId: BOGUS_IDS },
  })),
  // A paid order of its own, which the base call refunds: every case after it is refused for
  // what it changed (a bad reason or id before the order is looked at; anything valid is a 409 now).
  jsonTarget("POST api.admin.orders.$orderId.refund as admin", 200, {
    base: async () => {
      const orderId = await testCheckoutSale([await refundableListing()]);
      return {
        path: "/api/admin/orders/:orderId/refund",
        params: { orderId },
        json: { reason: "Duplicate purchase" },
      };
    },
    fields: { reason: [...WRONG_TYPES, LONG] },
    params: { orderId: BOGUS_IDS },
  }),
  // A paid order of its own, whose refund the base call asks for: every case after it is refused
  // for what it changed (a bad field before the order is looked at; anything valid is a 409 now).
  jsonTarget("POST api.refund-requests as nobody", 202, {
    base: async () => ({
      path: "/api/refund-requests",
      json: { sessionId: (await refundableSession()).sessionId, reason: "Not as shown." },
    }),
    required: ["sessionId", "reason"],
    fields: {
      sessionId: [...STRING_FIELD, "no-such-session", SQL],
      reason: [...STRING_FIELD, NUL, LONE_SURROGATE, "r".repeat(1001)],
    },
  }),
  target("GET api.admin.refund-requests as admin", 200, {
    base: () => ({ path: "/api/admin/refund-requests", query: { status: "requested" } }),
    query: { status: ["", "REQUESTED", "requested ", "approved", SQL, SCRIPT, LONG] },
  }),
  // A waiting request of its own, which the base call approves: anything valid after it is a 409.
  jsonTarget("POST api.admin.refund-requests.$id.approve as admin", 200, {
    base: async () => {
      const id = await openRefundRequest();
      return { path: "/api/admin/refund-requests/:id/approve", params: { id }, json: {} };
    },
    params: { id: BOGUS_IDS },
  }),
  // A waiting request of its own, which the base call declines: anything valid after it is a 409.
  jsonTarget("POST api.admin.refund-requests.$id.decline as admin", 200, {
    base: async () => {
      const id = await openRefundRequest();
      return {
        path: "/api/admin/refund-requests/:id/decline",
        params: { id },
        json: { reason: "The file matches the preview." },
      };
    },
    required: ["reason"],
    fields: { reason: [...STRING_FIELD, NUL, LONE_SURROGATE, "r".repeat(1001)] },
    params: { id: BOGUS_IDS },
  }),
  // Each valid call makes a bundle of Alice's two $5 listings; an id not hers is a 404, anything malformed a 400.
  jsonTarget("POST api.token-bundles as alice", 201, {
    base: async () => ({
      path: "/api/token-bundles",
      json: { title: "Corpus bundle", listingIds: await aliceBundleListings(), price: 8 },
    }),
    required: ["title", "listingIds", "price"],
    fields: {
      title: [...STRING_FIELD, NUL, LONE_SURROGATE, "t".repeat(121)],
      listingIds: [
        ...WRONG_TYPES,
        ["no-such-a", "no-such-b"],
        [SQL, SCRIPT],
        ["same", "same"],
        Array.from({ length: 11 }, (_, index) => `id-${index}`),
        [LONG, "b"],
        [42, 43],
      ],
      price: [...ABSURD_NUMBERS, null, true, {}, [], "", "abc", 10, 11, 10_000.01, 0.001],
    },
  }),
  // One of Alice's bundles, withdrawn by the base call; every case after it names no bundle of hers.
  target("DELETE api.token-bundles.$id as alice", 204, {
    base: async () => {
      const bundle = await createBundle(getDb(), {
        userId: w.alice.user.id,
        title: "Corpus bundle",
        listingIds: await aliceBundleListings(),
        priceCents: 800,
        now: new Date(),
      });
      return { path: "/api/token-bundles/:id", params: { id: bundle.id } };
    },
    params: { id: [...BOGUS_IDS, LONG, " "] },
  }),
  // Each valid call makes a code of Alice's (a new text each time); a listing not hers is a 404, anything malformed a 400.
  jsonTarget("POST api.token-discounts as alice", 201, {
    base: () => ({ path: "/api/token-discounts", json: { code: newCode(), percentOff: 10 } }),
    fresh: () => ({ code: newCode() }),
    required: ["code"],
    fields: {
      code: [...STRING_FIELD, NUL, SQL, SCRIPT, "ab", "a b", "x".repeat(33), "é-code"],
      percentOff: [...ABSURD_NUMBERS, null, 101, 1.5, "1e2", true, {}, []],
      // The base gives a percent off: any amount off as well is refused, as is a malformed one.
      amountOff: [5, "5", -1, 0, "abc", 1e308, true, {}, [], 10_000.01],
      listingIds: [
        true,
        42,
        {},
        "no-such-listing",
        ["no-such-listing"],
        [SQL],
        [42],
        [LONG],
        Array.from({ length: 101 }, (_, index) => `id-${index}`),
      ],
      startsAt: ["2027-02-30", "tomorrow", "2027-1-5", 42, true, {}, [], LONG, SQL, NUL],
      endsAt: ["2027-13-01", "next week", 42, true, {}, [], LONG],
      maxRedemptions: [0, -1, 1.5, 1e308, "abc", "1e2", true, {}, [], 1_000_001],
    },
  }),
  // One of Alice's codes, deleted by the base call; every case after it names no code of hers.
  target("DELETE api.token-discounts.$id as alice", 204, {
    base: async () => {
      const made = await createDiscount(getDb(), {
        userId: w.alice.user.id,
        input: { code: newCode(), percentOff: 10, amountOff: undefined },
        now: new Date(),
      });
      return { path: "/api/token-discounts/:id", params: { id: made.id } };
    },
    params: { id: [...BOGUS_IDS, LONG, " "] },
  }),
  // Each follower's email follows once; an unknown storefront is a 404, anything malformed a 400.
  jsonTarget("POST api.follows as nobody", 202, {
    base: async () => {
      await updateWhere("users", { handle: "alice-corpus" }, "id", w.alice.user.id);
      return { path: "/api/follows", json: { handle: "alice-corpus", email: newEmail() } };
    },
    fresh: () => ({ email: newEmail() }),
    required: ["handle", "email"],
    fields: {
      handle: [...STRING_FIELD, "no-such-creator", NUL],
      email: EMAIL_FIELD,
    },
  }),
  // Each reporter's email reports once; an unknown listing is a 404, anything malformed a 400.
  jsonTarget("POST api.reports as nobody", 202, {
    base: () => ({
      path: "/api/reports",
      json: {
        listingId: w.listed.listing.id,
        reason: "other",
        email: newEmail(),
        details: "A corpus report.",
      },
    }),
    fresh: () => ({ email: newEmail() }),
    required: ["listingId", "reason", "email"],
    fields: {
      listingId: [...STRING_FIELD, "no-such-listing"],
      reason: [...STRING_FIELD, "spam", "INTIMATE"],
      email: EMAIL_FIELD,
      details: [...WRONG_TYPES, LONG],
    },
  }),
  // An unconfirmed report of its own, which the base call confirms; an unknown token is a 404.
  jsonTarget("POST api.reports.confirm as nobody", 200, {
    base: async () => {
      const token = crypto.randomBytes(16).toString("hex");
      await insertReport(w.listed.listing, { token, status: "unconfirmed" });
      return { path: "/api/reports/confirm", json: { token } };
    },
    required: ["token"],
    fields: { token: [...STRING_FIELD, "not-a-token"] },
  }),
  target("GET api.admin.reports as admin", 200, {
    base: () => ({ path: "/api/admin/reports", query: { status: "open" } }),
    query: { status: ["", "OPEN", "open ", "unconfirmed", SQL, SCRIPT, LONG] },
  }),
  // An open report of its own, which the base call dismisses: anything valid after it is a 409.
  jsonTarget("POST api.admin.reports.$id as admin", 200, {
    base: async () => {
      const id = await insertReport(w.listed.listing, { status: "open" });
      return {
        path: "/api/admin/reports/:id",
        params: { id },
        json: { decision: "dismiss", note: "Not a problem." },
      };
    },
    required: ["decision", "note"],
    fields: {
      decision: [...STRING_FIELD, "delete", "REMOVE"],
      note: [...WRONG_TYPES, "", "   ", LONG],
    },
    params: { id: BOGUS_IDS },
  }),
  // The same 202 for any well-formed email; a malformed one is a 400.
  jsonTarget("POST api.library-link as nobody", 202, {
    base: () => ({ path: "/api/library-link", json: { email: newEmail() } }),
    required: ["email"],
    fields: { email: EMAIL_FIELD },
  }),
  jsonTarget("POST api.create-checkout-session as nobody", 200, {
    base: () => ({
      path: "/api/create-checkout-session",
      json: {
        cartItems: [{ imageId: w.listed.listing.id, licenseType: "standard" }],
        customerInfo: { name: "Bea Buyer", email: "bea@example.com" },
      },
    }),
    required: ["cartItems", "customerInfo", "customerInfo.name", "customerInfo.email"],
    fields: {
      cartItems: [
        ...WRONG_TYPES,
        "x",
        [null],
        ["id"],
        [{}],
        [{ imageId: 42 }],
        [{ imageId: "" }],
        [{ image: { id: null } }],
        [{ imageId: "no-such-listing" }],
        [{ imageId: SQL }],
        [{ imageId: LONG }],
        Array.from({ length: 51 }, () => ({ imageId: "x" })),
      ],
      // A tier the listing does not offer (it prices neither Extended nor Exclusive) is a 400 too (decision 101).
      "cartItems.0.licenseType": ["extended", "exclusive", "premium", "", 42, null, SQL],
      customerInfo: [...WRONG_TYPES, "x"],
      "customerInfo.name": STRING_FIELD,
      "customerInfo.email": EMAIL_FIELD,
      "customerInfo.company": [42, true, [], {}, LONG],
      // A code that does not exist, or is not a string: a sentence, and no order.
      discountCode: ["NOSUCH", SQL, SCRIPT, NUL, "x".repeat(65), 42, true, null, [], {}, LONG],
      // ISO 3166-1 alpha-2 or nothing; a VAT number in an EU or UK format, of the country chosen.
      "customerInfo.country": ["XX", "Germany", "D", "DEU", 42, true, null, [], {}, SQL, LONG],
      "customerInfo.vatNumber": [
        "DE12",
        "123456789",
        "ZZ123456789",
        "DE123456789",
        42,
        true,
        null,
        [],
        {},
        SQL,
        LONG,
      ],
    },
    accepts: [
      {
        // A country in any case, trimmed; empty is none.
        in: "json",
        field: "customerInfo.country",
        values: ["DE", "de", " fr ", ""],
        check: async (value, body) => {
          const order = await getDb()
            .selectFrom("orders")
            .select(["country"])
            .where(
              "checkout_session_hash",
              "=",
              checkoutSessionHash((body as { sessionId: string }).sessionId),
            )
            .executeTakeFirstOrThrow();
          expect(order.country).toBe(String(value).trim().toUpperCase() || null);
        },
      },
      {
        in: "json",
        field: "customerInfo.name",
        values: HOSTILE_TEXT,
        check: async (value, body) => {
          const order = await getDb()
            .selectFrom("orders")
            .select(["customer_name", "total_cents"])
            .where(
              "checkout_session_hash",
              "=",
              checkoutSessionHash((body as { sessionId: string }).sessionId),
            )
            .executeTakeFirstOrThrow();
          expect(order.customer_name).toBe(value);
        },
      },
      {
        // The client's price is ignored: the listing's price from the database is charged.
        in: "json",
        field: "cartItems.0.price",
        values: [-1, 0, 1e308, -1e308, "NaN", "Infinity", SQL, {}, [], null],
        check: async (_value, body) => {
          const order = await getDb()
            .selectFrom("orders")
            .select("total_cents")
            .where(
              "checkout_session_hash",
              "=",
              checkoutSessionHash((body as { sessionId: string }).sessionId),
            )
            .executeTakeFirstOrThrow();
          expect(order.total_cents).toBe(w.listed.listing.price_cents);
        },
      },
    ],
  }),
  jsonTarget("POST api.images.optimize as alice", 200, {
    base: () => ({
      path: "/api/images/optimize",
      json: {
        imageId: images.optimize,
        quality: 80,
        format: "jpg",
        resolution: "800x800",
        watermark: false,
        socialOptimized: false,
      },
    }),
    required: ["imageId"],
    fields: {
      imageId: [...WRONG_TYPES, "", ...BOGUS_IDS, PENDING],
      quality: [
        ...WRONG_TYPES.filter((v) => !Array.isArray(v)),
        51,
        49,
        101,
        1000,
        85.5,
        ...ABSURD_NUMBERS,
      ],
      format: [...WRONG_TYPES, "gif", "WEBP", "", SQL, SCRIPT, ["webp"]],
      resolution: [...WRONG_TYPES, "999x999", "original ", "", SQL, "0x0"],
      watermark: ["yes", "true", 1, 0, [], {}, null],
      socialOptimized: ["no", 1, null],
    },
  }),
  jsonTarget("POST api.account.consent as alice", 200, {
    base: () => ({ path: "/api/account/consent", json: { faceProcessing: true } }),
    required: ["faceProcessing"],
    // Only an explicit `true` is consent: false, "true", 1 and the like are refused and record nothing.
    fields: {
      faceProcessing: [
        ...WRONG_TYPES.filter((value) => value !== true),
        false,
        "true",
        "yes",
        1,
        0,
        [true],
        { value: true },
        LONG,
      ],
    },
  }),
  jsonTarget("POST api.token-images.$id.stylize as alice", 202, {
    base: () => ({
      path: "/api/token-images/:id/stylize",
      params: { id: images.stylize },
      json: { style: "anime" },
    }),
    required: ["style"],
    fields: {
      style: [...WRONG_TYPES, "", "unknown", "ANIME", "anime ", SQL, SCRIPT, ["anime"], LONG],
    },
    params: { id: BOGUS_IDS },
  }),
  target("POST api.token-images.$id.stylize-all as alice", 202, {
    base: () => ({ path: "/api/token-images/:id/stylize-all", params: { id: images.stylize } }),
    params: { id: BOGUS_IDS },
  }),
  target("POST api.token-stylized-images.$id.reroll as alice", 202, {
    base: async () => {
      const { id } = await createStylizedImage(w.alice.user.id);
      return { path: "/api/token-stylized-images/:id/reroll", params: { id } };
    },
    params: { id: BOGUS_IDS },
  }),
  jsonTarget("POST api.marketplace.launch as alice", 200, {
    base: () => marketplaceListing("/api/marketplace/launch", images.launch, "Launched", 30),
    required: ["imageId", "title", "price", "platforms"],
    fields: {
      imageId: [...WRONG_TYPES, "", ...BOGUS_IDS.filter((id) => id.length <= 100), LONG, PENDING],
      title: [...STRING_FIELD, HUGE.slice(0, 500)],
      description: [...WRONG_TYPES, LONG],
      // A launch price must be an amount the creator typed: none, 0, text or out of range is refused.
      price: [
        -1,
        -0.01,
        0,
        "0",
        0.001,
        1e308,
        -1e308,
        10_000.01,
        true,
        {},
        ["1", {}],
        "NaN",
        "abc",
        "Infinity",
        "1e308",
        "12abc",
        "",
      ],
      tags: [42, true, {}, [null], [42], [{}], LONG, [LONG]],
      // A tier's price: an amount in range, at least the Standard price (30 here).
      extendedPrice: [-1, 10, 29.99, "abc", true, {}, 1e308, "12abc"],
      exclusivePrice: [-1, 10, 29.99, "abc", true, {}, 1e308, "12abc"],
      enableLicensing: ["yes", 2, {}, [{}]],
      enableNFT: ["maybe", -1],
      platforms: [
        null,
        [],
        "",
        "bogus",
        ["bogus"],
        [SQL],
        [42],
        [null],
        {},
        [{}],
        Array.from({ length: 21 }, () => "marketplace"),
      ],
    },
    accepts: [
      {
        // A platform that closed is a known id: the answer says honestly that nothing was published there.
        in: "json",
        field: "platforms",
        values: [["zora"], ["foundation"]],
        check: (value, body) =>
          expect((body as { platforms: unknown[] }).platforms).toEqual([
            expect.objectContaining({ id: (value as string[])[0], status: "failed", url: null }),
          ]),
      },
      {
        in: "json",
        field: "title",
        values: HOSTILE_TEXT,
        check: async (value) => expect((await aliceListingOf(images.launch))?.title).toBe(value),
      },
      {
        in: "json",
        field: "description",
        values: [SCRIPT],
        check: async (value) =>
          expect((await aliceListingOf(images.launch))?.description).toBe(value),
      },
    ],
  }),
  jsonTarget("POST api.marketplace.post as alice", 200, {
    base: () => marketplaceListing("/api/marketplace/post", images.post, "Posted", 12.5),
    required: ["imageId", "title", "price", "platforms"],
    fields: {
      imageId: [...WRONG_TYPES, "", "no-such-id", SQL, PENDING],
      title: STRING_FIELD,
      description: [42, {}, LONG],
      price: [...ABSURD_NUMBERS, null, true, {}, [], 10_000.01, 0.001],
      platforms: [null, [], "bogus", ["bogus"], [42], {}],
    },
    accepts: [
      {
        in: "json",
        field: "platforms",
        values: [["zora"]],
        check: (_value, body) =>
          expect((body as { results: unknown[] }).results).toEqual([
            expect.objectContaining({
              platform: "zora",
              success: false,
              error: expect.any(String),
            }),
          ]),
      },
      {
        in: "json",
        field: "title",
        values: [SCRIPT, SQL],
        check: async (value) => expect((await aliceListingOf(images.post))?.title).toBe(value),
      },
    ],
  }),
  jsonTarget("POST api.token-marketplace-integrations as alice", 201, {
    base: () => ({
      path: "/api/token-marketplace-integrations",
      json: { platform: "mintable", apiKey: "mintable-key-0001", walletAddress: WALLET },
    }),
    required: ["platform", "apiKey", "walletAddress"],
    fields: {
      platform: [
        ...WRONG_TYPES,
        "",
        "bogus",
        "marketplace",
        "zora",
        "foundation",
        SQL,
        SCRIPT,
        LONG,
      ],
      apiKey: [...WRONG_TYPES, "", "   ", LONG],
      walletAddress: [
        ...WRONG_TYPES,
        "",
        "0x123",
        `0x${"g".repeat(40)}`,
        `${WALLET}00`,
        SQL,
        SCRIPT,
      ],
      shopDomain: [42, {}],
    },
    accepts: [
      {
        in: "json",
        field: "apiKey",
        values: [SQL, SCRIPT],
        // Stored, never echoed: only its last four characters come back.
        check: (value, body) => {
          expect(JSON.stringify(body)).not.toContain(String(value));
          expect((body as { apiKeyLast4: string }).apiKeyLast4).toBe(String(value).slice(-4));
        },
      },
    ],
  }),
  target("DELETE api.token-marketplace-integrations.$platform as alice", 204, {
    base: () => ({
      path: "/api/token-marketplace-integrations/:platform",
      params: { platform: "rarible" },
    }),
    params: { platform: [...BOGUS_IDS, "marketplace"] },
  }),
  target("GET api.marketplace as nobody", 200, {
    base: () => ({ path: "/api/marketplace", query: { limit: "10" } }),
    query: {
      style: ["bogus", "ANIME", SQL, SCRIPT, LONG],
      limit: ["-1", "0", "101", "1e308", "NaN", "abc", "1.5", "Infinity", LONG],
      q: [LONG],
      cursor: [
        "garbage",
        SQL,
        Buffer.from('{"a":1}').toString("base64url"),
        Buffer.from('["x", 1]').toString("base64url"),
        Buffer.from("[null,null]").toString("base64url"),
        LONG,
      ],
      listing: [LONG],
    },
    accepts: [
      {
        in: "query",
        field: "q",
        values: [SQL, SCRIPT, "%", "_", "\\", NUL, "🙂"],
        // Text, not a pattern and not SQL: only listings that contain it match (the launch cases above made some).
        check: (value, body) => {
          for (const item of (
            body as { items: { title: string; description: string; tags: string[] }[] }
          ).items) {
            expect([item.title, item.description, ...item.tags].join(" ").toLowerCase()).toContain(
              String(value).toLowerCase(),
            );
          }
        },
        unchanged: true,
      },
    ],
  }),
  // Shopify OAuth is not configured in this file: the valid request is the documented 400.
  target("GET api.oauth.$platform.authorize as alice", 400, {
    base: () => ({
      path: "/api/oauth/:platform/authorize",
      params: { platform: "shopify" },
      query: { shop: "alice-store" },
    }),
    params: { platform: [...BOGUS_IDS, "opensea", "marketplace"] },
    query: { shop: ["evil.com", SCRIPT, LONG, "a.myshopify.com/../x"], display: ["bogus", SQL] },
  }),
  target("GET api.publications as alice", 200, {
    base: () => ({ path: "/api/publications", query: { imageId: w.listed.stylized.id } }),
    query: { imageId: ["", ...BOGUS_IDS] },
  }),
  target("GET api.publications.$id.download as alice", 200, {
    base: () => {
      const url = new URL(w.mintKit.downloadUrl);
      return {
        path: "/api/publications/:id/download",
        params: { id: w.mintKit.publicationId },
        query: Object.fromEntries(url.searchParams),
      };
    },
    params: { id: BOGUS_IDS },
    query: { exp: ["", "NaN", "-1", "1e308", "abc", LONG], sig: ["", "AAAA", SQL, LONG] },
  }),
  target("GET api.payment-status.$sessionId as nobody", 200, {
    base: () => ({
      path: "/api/payment-status/:sessionId",
      params: { sessionId: w.sale.sessionId },
    }),
    params: { sessionId: BOGUS_IDS },
  }),
  target("GET api.account.export.$id as alice", 200, {
    base: async () => ({
      path: "/api/account/export/:id",
      params: { id: (await startAccountExport(getDb(), w.alice.user.id, new Date())).id },
    }),
    params: { id: BOGUS_IDS },
  }),
  // A pending export has nothing to download yet: 404, as for every bogus id.
  target("GET api.account.export.$id.download as alice", 404, {
    base: async () => ({
      path: "/api/account/export/:id/download",
      params: { id: (await startAccountExport(getDb(), w.alice.user.id, new Date())).id },
    }),
    params: { id: BOGUS_IDS },
  }),
  ...(["GET", "DELETE"] as const).flatMap((method) => [
    aliceImageById(
      method,
      "api.token-images.$id",
      () => w.listed.imageId,
      (made) => made.image_id,
    ),
    aliceImageById(
      method,
      "api.token-stylized-images.$id",
      () => w.listed.stylized.id,
      (made) => made.id,
    ),
  ]),
  // The password change and the sessions list
  // Alice's own password again (so the world's stays); a wrong current one is counted like a failed sign-in.
  jsonTarget("POST api.account.password as alice", 204, {
    base: () => ({
      path: "/api/account/password",
      json: { currentPassword: w.alice.password, newPassword: w.alice.password },
    }),
    required: ["currentPassword", "newPassword"],
    fields: {
      currentPassword: [...PASSWORD_FIELD, ...HOSTILE_TEXT, NUL, LONE_SURROGATE],
      newPassword: [...PASSWORD_FIELD, "short", "qwerty123", "PASSWORD1"],
    },
    mayChange: ["auth_failures", "sqlite_sequence"],
  }),
  // One of Alice's web sessions, ended by the base call; every case after it names no session of hers.
  target("DELETE api.account.sessions.$id as alice", 204, {
    base: async () => {
      const id = await newWebSessionId(w.alice.user.id);
      return { path: "/api/account/sessions/:id", params: { id } };
    },
    params: { id: [...BOGUS_IDS, LONG, " ", "web", "token"] },
  }),
  // The creator's analytics: only 7, 30 or 90 days
  target("GET api.token-analytics as alice", 200, {
    base: () => ({ path: "/api/token-analytics", query: { days: "7" } }),
    query: { days: ["0", "1", "-7", "31", "7.0", "1e308", "NaN", "abc", SQL, SCRIPT, LONG] },
  }),
  // A model release signed in the app (Adobe Stock): the base call signs one for Alice's image.
  jsonTarget("POST api.token-stylized-images.$id.model-release as alice", 201, {
    base: () => ({
      path: "/api/token-stylized-images/:id/model-release",
      params: { id: w.listed.stylized.id },
      json: {
        ...RELEASE_DETAILS,
        modelName: "Alice Example",
        signedOn: "2026-11-26",
        signature: "Alice Example",
        confirm: true,
      },
    }),
    params: { id: BOGUS_IDS },
    required: [
      "modelName",
      "dateOfBirth",
      "address",
      "email",
      "phone",
      "shootDate",
      "signedOn",
      "signature",
      "confirm",
    ],
    fields: {
      modelName: ["", " ", LONG, 42, null, ["Alice"]],
      dateOfBirth: ["", "1990-02-30", "2020-01-01", "1899-12-31", SQL, 19900501],
      address: ["", " ", "x".repeat(301), 42, null],
      email: ["", "not an address", LONG, 42],
      phone: ["", "call me", "+1 2", LONG, SCRIPT, 441614960000],
      shootDate: ["", "2024-13-01", "2999-01-01", SQL],
      shootLocation: [LONG, 42],
      selfTaken: [false, "no", 0, null],
      photographerName: [LONG, 42],
      signedOn: ["", "2026-13-45", "31/12/2026", "2999-01-01", SQL, 20261126],
      signature: ["", "Someone Else", LONG, SCRIPT],
      confirm: [false, "no", 0, null],
      drawnSignature: [
        "data:text/html;base64,PGI+",
        "data:image/png;base64,AAAA",
        "x".repeat(400_001),
        7,
      ],
    },
  }),
  target("GET api.token-stylized-images.$id.model-release as alice", 200, {
    base: async () => {
      await ensureModelRelease(w.alice, w.listed.stylized);
      return {
        path: "/api/token-stylized-images/:id/model-release",
        params: { id: w.listed.stylized.id },
      };
    },
    params: { id: [...BOGUS_IDS, LONG, " "] },
  }),
];

describe("bad-input corpus", () => {
  for (const target of TARGETS) {
    it(
      `${target.method} ${target.route}: every malformed request is a 4xx JSON message and changes nothing`,
      () => runTarget(target),
      target.timeoutMs,
    );
  }

  // The uploads: an original, a profile photo, a verification selfie, and a file whose Content
  // Credentials are checked (any bytes; its own hostile manifests: provenance-check.test.tsx).
  for (const [route, uploadPath, field] of [
    ["api.token-images.upload", "/api/token-images/upload", "image"],
    ["api.account.avatar", "/api/account/avatar", "image"],
    ["api.account.face", "/api/account/face", "image"],
    ["api.provenance.check", "/api/provenance/check", "file"],
  ] as const) {
    it(`POST ${uploadPath}: empty, malformed, mistyped and oversized multipart bodies`, async () => {
      const module = await loadRoute(routes.get(route)!);
      const png = fixture("portrait.png");
      const boundary = "----reliability-boundary";
      const part = (headers: string, data: Buffer | string) =>
        Buffer.concat([
          Buffer.from(`--${boundary}\r\n${headers}\r\n\r\n`),
          Buffer.isBuffer(data) ? data : Buffer.from(data),
          Buffer.from("\r\n"),
        ]);
      const close = Buffer.from(`--${boundary}--\r\n`);
      const fileHeaders = (name: string = field, filename = "selfie.png", type = "image/png") =>
        `Content-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}`;
      const multipart = `multipart/form-data; boundary=${boundary}`;
      const bodies: [string, BodyInit | undefined, Record<string, string>][] = [
        ["no body at all", undefined, { "Content-Type": multipart }],
        ["an empty multipart body", "", { "Content-Type": multipart }],
        ["only the closing boundary", close, { "Content-Type": multipart }],
        [
          "a multipart type without a boundary",
          Buffer.concat([part(fileHeaders(), png), close]),
          { "Content-Type": "multipart/form-data" },
        ],
        [
          "a boundary that is not in the body",
          Buffer.concat([part(fileHeaders(), png), close]),
          { "Content-Type": "multipart/form-data; boundary=other" },
        ],
        [
          "the file in the wrong field",
          Buffer.concat([part(fileHeaders("photo"), png), close]),
          { "Content-Type": multipart },
        ],
        [
          "an empty file",
          Buffer.concat([part(fileHeaders(), ""), close]),
          { "Content-Type": multipart },
        ],
        [
          "text in the image field",
          Buffer.concat([part(`Content-Disposition: form-data; name="${field}"`, "hello"), close]),
          { "Content-Type": multipart },
        ],
        [
          "a text file named .png",
          Buffer.concat([part(fileHeaders(), "just some text, not an image"), close]),
          { "Content-Type": multipart },
        ],
        [
          "SVG with a script",
          Buffer.concat([
            part(
              fileHeaders(field, "x.svg", "image/svg+xml"),
              `<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>`,
            ),
            close,
          ]),
          { "Content-Type": multipart },
        ],
        [
          "a truncated PNG",
          Buffer.concat([part(fileHeaders(), png.subarray(0, 200)), close]),
          { "Content-Type": multipart },
        ],
        ["no closing boundary", part(fileHeaders(), png), { "Content-Type": multipart }],
        ["garbage bytes", crypto.randomBytes(4096), { "Content-Type": multipart }],
        [
          "a 100 KB part header",
          Buffer.concat([
            part(`${fileHeaders()}\r\nX-Padding: ${"p".repeat(100_000)}`, png),
            close,
          ]),
          { "Content-Type": multipart },
        ],
        [
          "a part without headers",
          Buffer.concat([Buffer.from(`--${boundary}\r\n\r\n`), png, Buffer.from("\r\n"), close]),
          { "Content-Type": multipart },
        ],
        [
          "an 11 MB file",
          Buffer.concat([part(fileHeaders(), Buffer.alloc(11 * 1024 * 1024, 7)), close]),
          { "Content-Type": multipart },
        ],
        [
          // Up to ten files of 10 MB each may come in one upload: a body declared past that is refused unread.
          "a declared length of 200 MB",
          Buffer.concat([part(fileHeaders(), png), close]),
          { "Content-Type": multipart, "Content-Length": String(200 * 1024 * 1024) },
        ],
        [
          "JSON instead of multipart",
          JSON.stringify({ image: png.toString("base64") }),
          { "Content-Type": "application/json" },
        ],
        ["the image as text/plain", png, { "Content-Type": "text/plain" }],
        ["form-urlencoded", "image=abc", { "Content-Type": "application/x-www-form-urlencoded" }],
        [
          "a 1.1 MB string field and no file",
          Buffer.concat([part('Content-Disposition: form-data; name="title"', HUGE), close]),
          { "Content-Type": multipart },
        ],
      ];
      const problems: string[] = [];
      for (const [name, body, headers] of bodies) {
        const { token } = await freshCredentials(w.alice.user.id);
        const problem = await problemOfCall(name, () =>
          callApiRoute(module, makeRequest(uploadPath, { method: "POST", token, body, headers })),
        );
        if (problem) problems.push(problem);
      }
      expect(problems).toEqual([]);
    });
  }

  it("POST /api/webhooks/stripe: unsigned, mis-signed, malformed and oversized events", async () => {
    const module = await loadRoute(routes.get("api.webhooks.stripe")!);
    const event = (fields: Record<string, unknown>) =>
      JSON.stringify({
        id: `evt_${crypto.randomBytes(6).toString("hex")}`,
        object: "event",
        type: "checkout.session.completed",
        created: 1,
        ...fields,
      });
    const signed = (payload: string): [string, Record<string, string>] => [
      payload,
      { "Stripe-Signature": signPayload(payload, WEBHOOK_SECRET) },
    ];
    const valid = event({ type: "customer.created", data: { object: { id: "cus_1" } } });
    const cases: [string, string, Record<string, string>][] = [
      ["no signature", valid, {}],
      ["a garbage signature", valid, { "Stripe-Signature": "t=1,v1=abc" }],
      ["an empty signature", valid, { "Stripe-Signature": "" }],
      [
        "signed with another secret",
        valid,
        { "Stripe-Signature": signPayload(valid, "whsec_other") },
      ],
      ["a 100 KB signature header", valid, { "Stripe-Signature": `t=1,v1=${"a".repeat(100_000)}` }],
      ["signed, not JSON", ...signed("not json")],
      ["signed, an empty body", ...signed("")],
      ["signed, JSON null", ...signed("null")],
      ["signed, a JSON array", ...signed("[1,2]")],
      ["signed, a session event without data", ...signed(event({ data: undefined }))],
      ["signed, a session event with null data", ...signed(event({ data: null }))],
      [
        "signed, a session event with data.object null",
        ...signed(event({ data: { object: null } })),
      ],
      [
        "signed, a session event with data.object a string",
        ...signed(event({ data: { object: "cs_1" } })),
      ],
      [
        "signed, a session event whose session has no id",
        ...signed(event({ data: { object: {} } })),
      ],
      [
        "signed, a session event whose session id is a number",
        ...signed(event({ data: { object: { id: 42, metadata: { order_id: 7 } } } })),
      ],
      [
        "signed, an event without an id",
        ...signed(
          JSON.stringify({
            object: "event",
            type: "checkout.session.completed",
            data: { object: { id: "cs_x" } },
          }),
        ),
      ],
      [
        "signed, an event whose id is an object",
        ...signed(event({ id: { $gt: "" }, data: { object: { id: "cs_x" } } })),
      ],
      [
        "signed, an event with a 1 KB type",
        ...signed(event({ type: "x".repeat(1000), data: { object: {} } })),
      ],
      [
        "signed, an event whose data.object is an array",
        ...signed(event({ type: "customer.created", data: { object: [] } })),
      ],
      ["a 600 KB body", `{"pad":"${"p".repeat(600_000)}"}`, { "Stripe-Signature": "t=1,v1=abc" }],
      // Early fraud warnings that reach their handler (they say their mode) but are not well formed.
      ...(
        [
          ["without a charge", { id: "issfr_1" }],
          ["whose charge is a number", { id: "issfr_2", charge: 42 }],
          ["whose charge is an object without an id", { id: "issfr_3", charge: {} }],
          ["whose actionable is a string", { id: "issfr_4", charge: "ch_1", actionable: "yes" }],
          ["without an id", { charge: "ch_1" }],
          ["that is an array", []],
        ] as const
      ).map(([what, object]): [string, string, Record<string, string>] => [
        `signed, an early fraud warning ${what}`,
        ...signed(
          event({
            type: "radar.early_fraud_warning.created",
            livemode: false,
            data: { object },
          }),
        ),
      ]),
    ];
    const problems: string[] = [];
    for (const [name, payload, headers] of cases) {
      const problem = await problemOfCall(name, () =>
        callApiRoute(
          module,
          makeRequest("/api/webhooks/stripe", {
            method: "POST",
            body: payload,
            headers: { "Content-Type": "application/json", ...headers },
            origin: "none",
          }),
        ),
      );
      if (problem) problems.push(problem);
    }
    expect(problems).toEqual([]);
  });

  it("POST /api/webhooks/shopify: unsigned, mis-signed, malformed and oversized webhooks", async () => {
    const module = await loadRoute(routes.get("api.webhooks.shopify")!);
    const secret = "shpss_reliability_corpus_secret";
    const restore = configure({ SHOPIFY_CLIENT_SECRET: secret });
    try {
      const hmac = (payload: string, key = secret) =>
        crypto.createHmac("sha256", key).update(payload).digest("base64");
      const shop = "alice-store.myshopify.com";
      const valid = JSON.stringify({ shop_id: 1, shop_domain: shop });
      const signed = (
        payload: string,
        topic = "shop/redact",
      ): [string, string, Record<string, string>] => [
        payload,
        topic,
        { "X-Shopify-Hmac-Sha256": hmac(payload) },
      ];
      const cases: [string, string, string, Record<string, string>][] = [
        ["no signature", valid, "shop/redact", {}],
        ["an empty signature", valid, "shop/redact", { "X-Shopify-Hmac-Sha256": "" }],
        ["a garbage signature", valid, "shop/redact", { "X-Shopify-Hmac-Sha256": "not-base64!!" }],
        [
          "signed with another secret",
          valid,
          "shop/redact",
          { "X-Shopify-Hmac-Sha256": hmac(valid, "shpss_other") },
        ],
        [
          "a 100 KB signature header",
          valid,
          "shop/redact",
          { "X-Shopify-Hmac-Sha256": "A".repeat(100_000) },
        ],
        ["signed, not JSON", ...signed("not json")],
        ["signed, an empty body", ...signed("")],
        ["signed, JSON null", ...signed("null")],
        ["signed, a JSON array", ...signed("[1,2]")],
        ["signed, deeply nested", ...signed(`{"a":${"[".repeat(1000)}`)],
        [
          "signed, no store named",
          ...signed(JSON.stringify({ shop_domain: "evil.example" }), "app/uninstalled"),
        ],
        [
          "signed, a script for a store",
          ...signed(JSON.stringify({ shop_domain: SCRIPT }), "app/uninstalled"),
        ],
        ["signed, another topic's body", ...signed(valid, "app/uninstalled")],
        [
          "signed, a garbled X-Shopify-Triggered-At",
          valid,
          "shop/redact",
          { "X-Shopify-Hmac-Sha256": hmac(valid), "X-Shopify-Triggered-At": SCRIPT },
        ],
        [
          "signed, X-Shopify-Shop-Domain names another store",
          valid,
          "shop/redact",
          {
            "X-Shopify-Hmac-Sha256": hmac(valid),
            "X-Shopify-Shop-Domain": "bob-store.myshopify.com",
          },
        ],
        [
          "a 600 KB body",
          `{"pad":"${"p".repeat(600_000)}"}`,
          "shop/redact",
          { "X-Shopify-Hmac-Sha256": "AAAA" },
        ],
      ];
      const problems: string[] = [];
      for (const [name, payload, topic, headers] of cases) {
        const problem = await problemOfCall(name, () =>
          callApiRoute(
            module,
            makeRequest("/api/webhooks/shopify", {
              method: "POST",
              body: payload,
              headers: { "Content-Type": "application/json", "X-Shopify-Topic": topic, ...headers },
              origin: "none",
            }),
          ),
        );
        if (problem) problems.push(problem);
      }
      expect(problems).toEqual([]);
    } finally {
      restore();
    }
  });

  it("GET /api/oauth/{platform}/callback: a junk query never breaks the page and changes nothing", async () => {
    const module = await loadRoute(routes.get("api.oauth.$platform.callback")!);
    const queries = [
      "",
      "state=bogus",
      `state=${encodeURIComponent(SQL)}&code=x&shop=${encodeURIComponent(SCRIPT)}`,
      `state=${LONG}`,
      "hmac=zz&shop=a.myshopify.com&state=x&code=y",
      `code=${LONG}`,
    ];
    const problems: string[] = [];
    for (const platform of ["shopify", "opensea", SQL, LONG]) {
      for (const query of queries) {
        const { cookie } = await freshCredentials(w.alice.user.id);
        const before = await fingerprint();
        const response = await callApiRoute(
          module,
          makeRequest(`/api/oauth/x/callback?${query}`, { cookie }),
          { platform },
        );
        const name = `${describeValue(platform)} ?${describeValue(query)}`;
        if (response.status >= 500) problems.push(`${name}: answered ${response.status}`);
        if (response.status !== 302 && response.status !== 200)
          problems.push(`${name}: answered ${response.status}`);
        const page = await response.text();
        if (page.includes("<script>alert(1)</script>"))
          problems.push(`${name}: echoed the script unescaped`);
        try {
          expectUnchanged(before, await fingerprint(), name);
        } catch (error) {
          problems.push(`${name}: ${String(error).split("\n")[0]}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("every route and method, given a junk query and a malformed body, answers without a 5xx", async () => {
    const junk = `?__proto__[isAdmin]=1&constructor=x&id=${encodeURIComponent(SQL)}&limit=-1&style=${encodeURIComponent(SCRIPT)}&imageId=${"9".repeat(500)}`;
    const problems: string[] = [];
    const browserRoutes = new Set(["api.login", "api.oauth.$platform.callback"]);
    // Routes whose success is a file of their own (a query they do not read changes nothing).
    const fileRoutes = new Map([
      ["api.token-analytics.sales[.]csv", /^text\/csv\b/],
      ["api.admin.tax[.]csv", /^text\/csv\b/],
    ]);
    for (const route of routes.values()) {
      const module = await loadRoute(route);
      const params = Object.fromEntries(
        [...route.pattern.matchAll(/:(\w+)/g)].map((match) => [match[1], SQL]),
      );
      if (route.pattern.endsWith("*")) params["*"] = SQL;
      for (const method of HTTP_METHODS) {
        for (const as of ["alice", "admin"] as const) {
          const auth = await credentialsOf(as);
          const request = makeRequest(`${route.pattern.replace(/:\w+|\*/g, "x")}${junk}`, {
            method,
            ...auth,
            ...(method === "GET"
              ? {}
              : {
                  body: `{"a":${"[".repeat(1000)}`,
                  headers: { "Content-Type": "application/json" },
                }),
          });
          const response = await callApiRoute(module, request, params);
          const answer = await response.text();
          const name = `${method} ${route.pattern} as ${as}`;
          if (response.status >= 500)
            problems.push(`${name}: answered ${response.status}: ${answer.slice(0, 200)}`);
          const json = /^application\/json\b/.test(response.headers.get("Content-Type") ?? "");
          if (response.status >= 400 && !json)
            problems.push(
              `${name}: answered ${response.status} as ${response.headers.get("Content-Type")}`,
            );
          const file = fileRoutes.get(route.id);
          if (
            response.status < 300 &&
            !json &&
            !browserRoutes.has(route.id) &&
            !file?.test(response.headers.get("Content-Type") ?? "") &&
            response.status !== 204
          ) {
            problems.push(
              `${name}: answered ${response.status} as ${response.headers.get("Content-Type")}`,
            );
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });
});

/** For the completeness check: the routes that take input and where their corpus is. */
const COVERED = new Set([
  ...TARGETS.map((target) => `${target.method} ${target.route}`),
  "POST api.token-images.upload",
  // The profile photo's multipart bodies: the malformed-multipart test above.
  "POST api.account.avatar",
  // The verification selfie's multipart bodies: the same test; no face, several faces and hostile
  // pictures: app/features/privacy/verified-face.test.ts.
  "POST api.account.face",
  // A file whose Content Credentials are checked: the same test; hostile manifest stores and files
  // cut short: app/features/market/provenance/provenance-check.test.tsx and
  // app/engines/provenance/credentials-check.server.test.ts.
  "POST api.provenance.check",
  "POST api.webhooks.stripe",
  "POST api.webhooks.shopify",
  "GET api.oauth.$platform.callback",
  // Shopify's install request (a bad HMAC, store or timestamp, repeated parameters):
  // app/features/publishing/shopify/shopify-install.test.ts, and the junk test above.
  "GET api.oauth.shopify.install",
  // An uploaded model release's multipart body (not a PDF, the wrong field, not multipart, another's image):
  // app/features/publishing/releases/model-releases.test.ts, and the junk test above.
  "PUT api.token-stylized-images.$id.model-release",
]);
/** Routes whose only input is who is calling: the junk test above covers them. */
const NO_INPUT = new Set([
  "GET api.token-analytics.sales[.]csv",
  "GET api.token-discounts",
  "GET api.account",
  "DELETE api.account.face",
  "POST api.account.export",
  "GET api.account.sessions",
  "GET api.admin.images",
  "GET api.admin.tax[.]csv",
  "GET api.admin.listings-awaiting-consent",
  "GET api.admin.payouts",
  "GET api.admin.stats",
  "GET api.login",
  "GET api.marketplace-integrations",
  "GET api.marketplace-listings",
  "GET api.openapi[.]json",
  "POST api.payouts.onboard",
  "GET api.token-earnings",
  "GET api.token-images",
  "POST api.token-logout",
  "GET api.token-marketplace-integrations",
  "GET api.token-marketplace-listings",
  "GET api.token-payouts",
  "GET api.token-stats",
  "GET api.token-stylized-images",
  "GET api.token-user",
  "DELETE api.account.consent",
]);

describe("bad-input corpus coverage", () => {
  it("covers every route and method that exists (a new one must be added here)", async () => {
    const missing: string[] = [];
    for (const route of routes.values()) {
      if (route.id === "api.$") continue;
      const module = await loadRoute(route);
      for (const method of HTTP_METHODS) {
        const response = await callApiRoute(module, makeRequest(route.pattern, { method }), {});
        if (response.status === 405) continue;
        const key = `${method} ${route.id}`;
        if (!COVERED.has(key) && !NO_INPUT.has(key)) missing.push(key);
      }
    }
    expect(missing).toEqual([]);
  });
});
