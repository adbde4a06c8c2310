import crypto from "node:crypto";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getConfig } from "~/infra/config.server";
import { RESET_REQUESTED } from "~/features/accounts/passwords/procedures.server";
import { signResetToken } from "~/features/accounts/passwords/password-reset.server";
import { saveManualIntegration } from "~/features/publishing/integrations/integrations.server";
import { manualIntegrationSchema } from "~/features/publishing/schemas";
import {
  currentFaceConsent,
  currentFaceConsentVersion,
  recordFaceConsent,
} from "~/features/privacy/face-consent.server";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser, TEST_PASSWORD } from "#tests/setup/accounts";
import { startEmailChange } from "~/features/accounts/profile/email-change.server";
import { createListing, createStylizedImage } from "#tests/setup/market";
import { createBundle } from "~/features/market/bundles/bundles.server";
import { createDiscount } from "~/features/market/discounts/discounts.server";
import { PDFDocument } from "pdf-lib";
import { failedTestJob, TEST_JOB_ERROR } from "#tests/setup/jobs";
import { testCheckoutSale } from "#tests/setup/payouts";
import { fixture } from "#tests/setup/studio";
import { signPayload } from "#tests/mocks/stripe";
import {
  shopifyHandlers,
  shopifyMock,
  signShopifyCallback,
  SHOPIFY_TEST_CLIENT_ID,
  SHOPIFY_TEST_CLIENT_SECRET,
} from "#tests/mocks/shopify";
import { apiPaths, callApiRoute, HTTP_METHODS, loadRoute } from "./api-routes";
import type { ApiPath, HttpMethod, RouteModule } from "./api-routes";
import { expectUnchanged, fingerprint } from "./db-fingerprint";
import {
  freshCredentials,
  openRefundRequest,
  publishJobsIdle,
  refundableListing,
  refundableSession,
  startWorld,
  WALLET,
} from "./world";
import type { Account, World } from "./world";
import { startAccountExport } from "~/features/accounts/exports/account-exports.server";

/** Alice's export of her data (the pending one when there is one). */
async function aliceExportId(w: World): Promise<string> {
  return (await startAccountExport(getDb(), w.alice.user.id, new Date())).id;
}

/** An export of Alice's whose zip is ready to download (for a day), made as the export job leaves one. */
async function aliceReadyExportId(w: World): Promise<string> {
  const id = crypto.randomUUID();
  const key = newFileKey("exports", "zip");
  await getFileStore().write(key, Buffer.from("PK\u0005\u0006" + "\u0000".repeat(18), "binary"));
  const now = new Date().toISOString();
  await getDb()
    .insertInto("account_exports")
    .values({
      id,
      user_id: w.alice.user.id,
      status: "ready",
      file_key: key,
      bytes: 22,
      created_at: now,
      updated_at: now,
      ready_at: now,
      expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    })
    .execute();
  return id;
}
import { checkoutSessionHash } from "~/features/market/orders/orders.server";
import { apiRoutes } from "#tests/setup/api-routes";
import { getFileStore, newFileKey } from "~/infra/file-store.server";
import { RELEASE_DETAILS, ensureModelRelease } from "#tests/setup/model-releases";
import { insertReport } from "#tests/setup/reports";
import { firstRowWhere, rowWhere, selectWhere } from "#tests/setup/rows-where";
import { newWebSessionId } from "#tests/setup/web-sessions";
import { updateWhere } from "#tests/setup/update-where";

const { authorizeRoute, tokenUserRoute, tokenLoginRoute } = apiRoutes({
  authorizeRoute: "/api/oauth/{platform}/authorize",
  tokenUserRoute: "/api/token-user",
  tokenLoginRoute: "/api/token-login",
});

/**
 * Every /api route (found from app/routes, so a route or a method without an
 * entry here fails) called as anonymous, as creator A (the owner), as creator
 * B on A's resources, with the credentials of a creator who was banned after
 * signing in, and as the super admin. Each answer is checked against the
 * route's access kind below, a refused call changes nothing, and nothing of
 * A's is ever in what anyone else is shown.
 */

type Role =
  | "anonymous"
  | "bannedToken"
  | "bannedCookie"
  | "otherToken"
  | "otherCookie"
  | "admin"
  | "owner"
  | "ownerCookie";

/**
 * - public: anyone; a banned user's bearer token is still a 401 (a present, invalid bearer is always 401);
 * - none: the route does not look at credentials at all (a webhook, a redirect);
 * - own: signed in; each caller sees or changes only their own data;
 * - resource: signed in; addresses one of A's private resources (B and the admin get A's id: 404);
 * - admin: the super admin only.
 */
type Kind = "public" | "none" | "own" | "resource" | "admin";

interface Call {
  path: string;
  params?: Record<string, string>;
  json?: unknown;
  body?: () => BodyInit;
  headers?: Record<string, string>;
}

interface Prepared {
  call: Call;
  /** The same call with an id that does not exist: B must get exactly the same answer as for A's. */
  bogus?: Call;
  data?: Record<string, string>;
}

interface Entry {
  kind: Kind;
  /** The status of an allowed call. */
  ok: number;
  /** Builds the call; runs before each role's call, so a call that deletes or uses up something gets its own. */
  prepare?: (w: World, role: Role) => Prepared | Promise<Prepared>;
  expect?: Partial<Record<Role, number>>;
  /** A successful answer is a redirect, a page or a file rather than JSON. */
  notJson?: boolean;
  /** Which tables a successful call by someone other than the owner may change (their own rows); true for any. */
  othersMayChange?: true | string[];
  /** The owner's call goes with the session cookie (a browser-only route). */
  ownerVia?: "cookie";
  check?: (args: {
    role: Role;
    body: unknown;
    w: World;
    prepared: Prepared;
    response: Response;
  }) => void | Promise<void>;
  /** Who calls in place of a role's usual account (a call that ends its caller's account gets a throwaway one); undefined keeps the usual. */
  caller?: (role: Role) => Promise<{ token?: string; cookie?: string; userId: string } | undefined>;
}

const bogusId = "no-such-id-0000";

/** Alice's own calls, by bearer token or by session cookie. */
const isOwner = (role: Role) => role === "owner" || role === "ownerCookie";

/**
 * DELETE of a fresh one of Alice's resources at `path(id)` (a row of `table`):
 * only the owner's bearer call removes it.
 */
function deleteOwnRow(
  path: (id: string) => string,
  table: "images" | "stylized_images",
  id: (w: World) => Promise<string>,
): Entry {
  return {
    kind: "resource",
    ok: 204,
    notJson: true,
    prepare: byParam(path, "id", id),
    check: async ({ role, prepared }) => {
      const row = await getDb()
        .selectFrom(table)
        .select("id")
        .where("id", "=", prepared.data!.id)
        .executeTakeFirst();
      expect(Boolean(row)).toBe(role !== "owner");
    },
  };
}

/** DELETE at `path` (with `:id`) of a fresh resource of Alice's made by `id`; `check` looks at what is left of it. */
function deleteFresh(
  path: string,
  id: (w: World) => Promise<string>,
  check: Entry["check"],
): Entry {
  return { kind: "resource", ok: 204, notJson: true, prepare: byId(path, id), check };
}

/** The admin's call about a user made for it (`call(id)`), so an action that goes through affects no one else. */
function adminOnFreshUser(ok: number, call: (id: string) => Call, check: Entry["check"]): Entry {
  return {
    kind: "admin",
    ok,
    prepare: async () => {
      const id = (await createTestUser()).user.id;
      return { call: call(id), data: { id } };
    },
    check,
  };
}

/** Whose own account a role's call is about (Alice's for the callers who are refused). */
function accountOwner(w: World, role: Role) {
  return callerOf(w, role) ?? w.alice;
}
/** The account a signed-in caller acts as (none for the anonymous and the banned). */
function callerOf(w: World, role: Role) {
  const callers: Partial<Record<Role, Account>> = {
    owner: w.alice,
    ownerCookie: w.alice,
    otherToken: w.bob,
    otherCookie: w.bob,
    admin: w.admin,
  };
  return callers[role];
}
const portrait = fixture("portrait.png");

/** Each caller's upload of the portrait to `path` (as `filename`): rows and a file of their own. */
function ownUpload(ok: number, path: string, filename: string, check: Entry["check"]): Entry {
  return {
    kind: "own",
    ok,
    othersMayChange: true,
    prepare: () => portraitUpload(path, filename),
    check,
  };
}

/** The portrait as the form field `image` named `filename`, sent to `path`. */
function portraitUpload(path: string, filename: string): Prepared {
  return { call: { path, body: fileForm("image", portrait, "image/png", filename) } };
}

/** A completed stylized image of Alice's (with its original), made for one call. */
async function freshStylized(w: World) {
  return createStylizedImage(w.alice.user.id);
}

/** The admin's Retry or Cancel of a failed job: only the admin's call changes it. */
function adminJobAction(action: "retry" | "cancel", statusAfter: string) {
  return {
    kind: "admin" as const,
    ok: 200,
    prepare: async (): Promise<Prepared> => {
      const jobId = await failedTestJob();
      return {
        call: { path: `/api/admin/jobs/${jobId}/${action}`, params: { jobId } },
        data: { id: jobId },
      };
    },
    check: async ({
      role,
      body,
      prepared,
    }: {
      role: string;
      body: unknown;
      prepared: Prepared;
    }) => {
      const job = await rowWhere(
        "jobs",
        ["status", "last_error"],
        "id",
        prepared.data!.id as string,
      );
      if (role === "admin") {
        expect(body).toMatchObject({ id: prepared.data!.id, status: statusAfter });
        expect(job.status).toBe(statusAfter);
      } else {
        expect(job).toEqual({ status: "failed", last_error: TEST_JOB_ERROR });
      }
    },
  };
}

function rows(body: unknown): Record<string, unknown>[] {
  return body as Record<string, unknown>[];
}

/** An A-owned resource addressed by a route parameter. */
function byParam(
  path: (id: string) => string,
  param: string,
  id: (w: World) => string | Promise<string>,
  extra: Omit<Call, "path" | "params"> = {},
) {
  return async (w: World): Promise<Prepared> => {
    const value = await id(w);
    return { ...idAndBogus(path, value, extra, param), data: { id: value } };
  };
}

/** `byParam` for a route whose parameter is `id`, at `path` with `:id` in it. */
function byId(
  path: string,
  id: (w: World) => string | Promise<string>,
  extra: Omit<Call, "path" | "params"> = {},
) {
  return byParam((value) => path.replace(":id", value), "id", id, extra);
}

const OPTIMIZE_SETTINGS = {
  quality: 80,
  format: "jpg",
  resolution: "800x800",
  watermark: false,
  socialOptimized: false,
};

const LAUNCH_FIELDS = {
  title: "Launched",
  description: "",
  price: 30,
  tags: "a, b",
  enableLicensing: true,
  enableNFT: false,
  platforms: ["marketplace"],
};

const POST_FIELDS = { title: "Posted", description: "", price: 12.5, platforms: ["marketplace"] };

/** A POST at `path` about a fresh stylized image of Alice's (see onFreshStylized): a 200 for her only. */
function postOnFreshStylized(
  path: string,
  fields: Record<string, unknown>,
  check: Entry["check"],
): Entry {
  return { kind: "resource", ok: 200, prepare: onFreshStylized(path, fields), check };
}

/** A call at `path` whose JSON names a fresh stylized image of Alice's (`imageId`), with `fields`; the same with an id that does not exist. */
function onFreshStylized(path: string, fields: Record<string, unknown>) {
  return async (w: World): Promise<Prepared> => {
    const stylized = await freshStylized(w);
    return {
      call: { path, json: { imageId: stylized.id, ...fields } },
      bogus: { path, json: { imageId: bogusId, ...fields } },
      data: { id: stylized.id },
    };
  };
}

/** The call on `value` at `path(value)` (with `extra`), and the same call on an id that does not exist. */
function idAndBogus(
  path: (id: string) => string,
  value: string,
  extra: Omit<Call, "path" | "params"> = {},
  param = "id",
): Prepared {
  return {
    call: { path: path(value), params: { [param]: value }, ...extra },
    bogus: { path: path(bogusId), params: { [param]: bogusId }, ...extra },
  };
}

/**
 * A POST at `path` (with `:id`) about a fresh image of Alice's made by `id` (with `extra`):
 * a 202 for her, and `check` looks at what she is answered.
 */
function freshAction(
  path: string,
  id: (w: World) => Promise<string>,
  check: (body: unknown) => void,
  extra: Omit<Call, "path" | "params"> = {},
): Entry {
  return {
    kind: "resource",
    ok: 202,
    prepare: byId(path, id, extra),
    check: ({ role, body }) => {
      if (role === "owner") check(body);
    },
  };
}

/** The original of a fresh stylized image of Alice's. */
async function freshImageId(w: World) {
  return (await freshStylized(w)).image_id;
}
async function freshStylizedId(w: World) {
  return (await freshStylized(w)).id;
}

/** A discount code of Alice's, made for one call. */
async function freshDiscountId(w: World) {
  const code = `DEL-${Math.random().toString(36).slice(2, 10)}`;
  return (
    await createDiscount(getDb(), {
      userId: w.alice.user.id,
      input: { code, amountOff: 1 },
      now: new Date(),
    })
  ).id;
}

/** A bundle of Alice's live listings, made for one call. */
async function freshBundleId(w: World) {
  const listingIds = await bundleListingsOfAlice(w);
  const now = new Date();
  return (
    await createBundle(getDb(), {
      userId: w.alice.user.id,
      title: "Matrix bundle",
      listingIds,
      priceCents: 800,
      now,
    })
  ).id;
}

/** Two live listings of Alice's that her bundles hold (made once). */
let aliceBundleListings: string[] | undefined;
async function bundleListingsOfAlice(w: World): Promise<string[]> {
  aliceBundleListings ??= [
    (await createListing(w.alice.user.id, { price: 5, title: "Bundled one" })).listing.id,
    (await createListing(w.alice.user.id, { price: 5, title: "Bundled two" })).listing.id,
  ];
  return aliceBundleListings;
}

/** A list of the caller's own: the owner's shows `id(w)` (each other caller sees their own). */
function ownList(id: (w: World) => string): Entry {
  return {
    kind: "own",
    ok: 200,
    check: ({ role, body, w }) => {
      if (isOwner(role)) expect(rows(body).map((row) => row.id)).toContain(id(w));
    },
  };
}

/** A CSV file to download, named `<name>-YYYY-MM-DD.csv`, for the callers `kind` lets through. */
function csvDownload(kind: Kind, name: string): Entry {
  return {
    kind,
    ok: 200,
    notJson: true,
    check: ({ response }) => {
      expect(response.headers.get("Content-Type")).toMatch(/^text\/csv/);
      expect(response.headers.get("Content-Disposition")).toMatch(
        new RegExp(`^attachment; filename="${name}-\\d{4}-\\d{2}-\\d{2}\\.csv"`),
      );
    },
  };
}

/** A call at `path` with a new account's details (a fresh address starting `prefix`), as a registration form sends them. */
function newAccountCall(path: string, prefix: string, firstName: string, lastName: string) {
  const email = `${prefix}-${crypto.randomBytes(4).toString("hex")}@example.com`;
  return { call: { path, json: { email, password: "long-enough", firstName, lastName } } };
}

/** A webhook: its own credential (not a bearer header or cookie) lets it in, whoever calls; it may write anything. */
function webhook(prepare: () => Prepared, check: Entry["check"]): Entry {
  return { kind: "none", ok: 200, othersMayChange: true, prepare, check };
}

/** A webhook's POST of the JSON `payload` at `path`, with its credential in `headers`. */
function jsonWebhook(path: string, payload: string, headers: Record<string, string>): Prepared {
  return {
    call: {
      path,
      body: () => payload,
      headers: { "Content-Type": "application/json", ...headers },
    },
  };
}

/** The same call at `path` (with `extra`) for every role. */
function sends(path: string, extra: Omit<Call, "path"> = {}) {
  return (): Prepared => ({ call: { path, ...extra } });
}

/** Alice's own calls are answered with a file of `type`. */
function ownerGetsType(type: string): Entry["check"] {
  return ({ role, response }) => {
    if (isOwner(role)) expect(response.headers.get("Content-Type")).toBe(type);
  };
}

/** A read of the caller's own: each signed-in caller gets a 200, and `check` looks at what they are shown. */
function ownRead(check: Entry["check"]): Entry {
  return { kind: "own", ok: 200, check };
}

/** An admin's read: only the admin's call goes through, and `check` looks at what the admin is shown. */
function adminGet(
  check: (args: { body: unknown; w: World }) => void,
  prepare?: Entry["prepare"],
): Entry {
  return {
    kind: "admin",
    ok: 200,
    prepare,
    check: ({ role, body, w }) => {
      if (role === "admin") check({ body, w });
    },
  };
}

/** A multipart body with one file, `bytes` as `field` named `name`. */
function fileForm(field: string, bytes: Uint8Array, type: string, name: string) {
  return () => {
    const form = new FormData();
    form.append(field, new Blob([new Uint8Array(bytes)], { type }), name);
    return form;
  };
}

/** Alice's connection to `platform`'s marketplace, if she has one. */
function aliceIntegration(w: World, platform: string) {
  return getDb()
    .selectFrom("integrations")
    .select("id")
    .where("user_id", "=", w.alice.user.id)
    .where("platform", "=", platform)
    .executeTakeFirst();
}

/** Alice has a Rarible connection (so that B's disconnect would show if it reached hers). */
async function ensureAliceRarible(w: World) {
  await saveManualIntegration(getDb(), {
    userId: w.alice.user.id,
    input: manualIntegrationSchema.parse({
      platform: "rarible",
      apiKey: "alice-rarible-key-9876",
      walletAddress: WALLET,
    }),
    now: new Date(),
  });
}

const modelReleasePath = (id: string) => `/api/token-stylized-images/${id}/model-release`;

/** The model release of Alice's listed image (signed first if it is not yet), and the same call for an unknown image. */
async function aliceSignedRelease(w: World): Promise<Prepared> {
  await ensureModelRelease(w.alice, w.listed.stylized);
  return idAndBogus(modelReleasePath, w.listed.stylized.id);
}
const OTHER_WALLET = "0x0000000000000000000000000000000000c0ffee";
const WEBHOOK_SECRET = "whsec_reliability_matrix_secret";

const MATRIX: Record<string, Partial<Record<HttpMethod, Entry>>> = {
  "api.$": Object.fromEntries(
    HTTP_METHODS.map((method) => [
      method,
      {
        kind: "none",
        ok: 404,
        prepare: sends("/api/no-such-endpoint", { params: { "*": "no-such-endpoint" } }),
      },
    ]),
  ),

  // The password change and the sessions list: each caller acts on their own account only.
  "api.account.password": {
    POST: {
      kind: "own",
      ok: 204,
      notJson: true,
      // The caller's own password (the same one again, so the world's passwords stay), and their other
      // sessions end; the audit log records the change.
      othersMayChange: ["users", "sessions", "api_tokens", "audit_log", "sqlite_sequence"],
      prepare: sends("/api/account/password", {
        json: { currentPassword: TEST_PASSWORD, newPassword: TEST_PASSWORD },
      }),
      check: async ({ role, prepared }) => {
        // The call's own token keeps working.
        if (prepared.data?.token) {
          const after = await callRoute(
            tokenUserRoute.loader,
            makeRequest("/api/token-user", { token: prepared.data.token }),
          );
          expect(after.status, role).toBe(200);
        }
      },
    },
  },
  "api.account.sessions": {
    GET: {
      kind: "own",
      ok: 200,
      check: async ({ role, body, w }) => {
        const entries = rows(body);
        expect(entries.filter((entry) => entry.current)).toHaveLength(1);
        const owner = callerOf(w, role)!;
        const ids = [
          ...(await selectWhere("sessions", "public_id", "user_id", owner.user.id)),
          ...(await selectWhere("api_tokens", "public_id", "user_id", owner.user.id)),
        ].map((row) => row.public_id);
        for (const entry of entries) expect(ids).toContain(entry.id);
      },
    },
  },
  "api.account.sessions.$id": {
    DELETE: {
      // One of Alice's web sessions, made for each call: only she can end it; anyone else gets the 404 of an unknown id.
      kind: "resource",
      ok: 204,
      notJson: true,
      prepare: async (w) => {
        const id = await newWebSessionId(w.alice.user.id);
        return { ...idAndBogus((id) => `/api/account/sessions/${id}`, id), data: { id } };
      },
      check: async ({ role, prepared }) => {
        const row = await firstRowWhere("sessions", "public_id", "public_id", prepared.data!.id);
        expect(Boolean(row), role).toBe(role !== "owner" && role !== "ownerCookie");
      },
    },
  },
  // The account: each caller sees and changes only their own.
  "api.account": {
    GET: ownRead(({ role, body, w }) => {
      const owner = accountOwner(w, role);
      expect(body).toMatchObject({ id: owner.user.id, email: owner.email });
    }),
    PATCH: {
      kind: "own",
      ok: 200,
      othersMayChange: ["users"],
      prepare: sends("/api/account", { json: { bio: "Set by the authorization matrix" } }),
      check: ({ role, body, w }) => {
        expect(body).toMatchObject({
          id: accountOwner(w, role).user.id,
          bio: "Set by the authorization matrix",
        });
      },
    },
    // Erasing an account: the callers who would succeed erase throwaway accounts of their own, never Alice's or Bob's.
    DELETE: {
      kind: "own",
      ok: 202,
      // The super admin's own account cannot be erased.
      expect: { admin: 400 },
      othersMayChange: true,
      prepare: sends("/api/account", { json: { password: TEST_PASSWORD } }),
      caller: async (role) => {
        if (role !== "owner" && role !== "otherToken" && role !== "otherCookie") return undefined;
        const throwaway = await createTestUser();
        return role === "otherCookie"
          ? { cookie: throwaway.cookie, userId: throwaway.user.id }
          : { token: throwaway.token, userId: throwaway.user.id };
      },
      check: async ({ role, body, prepared }) => {
        const row = await rowWhere("users", "erased_at", "id", prepared.data!.userId);
        expect(row.erased_at, role).not.toBeNull();
        expect(body).toEqual({ userId: prepared.data!.userId, status: "erasing" });
      },
    },
  },
  "api.account.avatar": {
    // Each caller's own photo: their row and a file of their own.
    POST: ownUpload(200, "/api/account/avatar", "me.png", ({ role, body, w }) => {
      expect(body).toMatchObject({
        id: accountOwner(w, role).user.id,
        profileImageUrl: expect.stringMatching(/^\/media\/avatars\//),
      });
    }),
  },
  "api.account.face": {
    POST: {
      // Each caller's own verified face (a descriptor of the portrait), their uploads' likeness, the
      // job that compares their earlier uploads with it, and an audit entry of their own when the
      // same face is verified on another account.
      kind: "own",
      ok: 200,
      othersMayChange: ["verified_faces", "images", "jobs", "audit_log", "sqlite_sequence"],
      prepare: () => portraitUpload("/api/account/face", "me.png"),
      check: ({ body }) => {
        expect(body).toMatchObject({ face: { verified: true, at: expect.any(String) } });
      },
    },
    DELETE: {
      kind: "own",
      ok: 200,
      othersMayChange: ["verified_faces", "images"],
      check: ({ body }) => {
        expect(body).toEqual({ face: { verified: false, at: null } });
      },
    },
  },
  "api.account.email": {
    POST: {
      // A link to the new address and a notice to the caller's own: mail jobs and a waiting change of their own.
      kind: "own",
      ok: 202,
      othersMayChange: ["email_changes", "jobs"],
      prepare: () => ({
        call: {
          path: "/api/account/email",
          json: {
            email: `moved-${crypto.randomBytes(4).toString("hex")}@example.com`,
            password: TEST_PASSWORD,
          },
        },
      }),
    },
  },
  "api.account.email.confirm": {
    POST: {
      // The link of the caller's own waiting change (here to the address they have, so the world keeps its emails).
      kind: "own",
      ok: 200,
      // The audit log records the change.
      othersMayChange: ["users", "email_changes", "audit_log", "sqlite_sequence"],
      prepare: async (w, role) => {
        const owner = accountOwner(w, role);
        const token = await getDb()
          .transaction()
          .execute((trx) => startEmailChange(trx, owner.user, owner.email, new Date()));
        return { call: { path: "/api/account/email/confirm", json: { token } } };
      },
      check: ({ role, body, w }) => {
        expect(body).toMatchObject({
          id: accountOwner(w, role).user.id,
          email: accountOwner(w, role).email,
          pendingEmail: null,
        });
      },
    },
  },

  "api.account.consent": {
    POST: {
      kind: "own",
      ok: 200,
      othersMayChange: ["users", "consent_log"],
      prepare: sends("/api/account/consent", { json: { faceProcessing: true } }),
      check: ({ role, body, w }) => {
        const self = callerOf(w, role);
        expect(body).toMatchObject({
          id: self!.user.id,
          consent: {
            faceProcessing: { given: true, version: currentFaceConsentVersion(getConfig()) },
          },
        });
      },
    },
    DELETE: {
      kind: "own",
      ok: 200,
      othersMayChange: ["users", "jobs", "stylized_images", "consent_log"],
      check: async ({ role, body, w }) => {
        const self = callerOf(w, role);
        expect(body).toMatchObject({
          id: self!.user.id,
          consent: { faceProcessing: { given: false, at: null, version: null } },
        });
        // Agreed again, so the routes checked after this one can style.
        await recordFaceConsent(
          getDb(),
          self!.user.id,
          new Date(),
          currentFaceConsent(getConfig()),
        );
      },
    },
  },
  "api.admin.images": {
    GET: adminGet(({ body, w }) => {
      expect(rows(body)).toContainEqual(
        expect.objectContaining({ id: w.listed.imageId, userId: w.alice.user.id }),
      );
    }),
  },
  "api.admin.listings-awaiting-consent": {
    GET: adminGet(({ body }) => {
      // What it holds depends on the entries run before (verifying a face resets its likeness).
      const { count, listings } = body as { count: number; listings: unknown[] };
      expect(count).toBe(listings.length);
    }),
  },
  "api.admin.orders": {
    GET: {
      kind: "admin",
      ok: 200,
      prepare: sends("/api/admin/orders?q=bea%40example.com&status=paid"),
      check: ({ role, body, w }) => {
        if (role === "admin")
          expect(rows(body)).toContainEqual(
            expect.objectContaining({
              id: w.sale.orderId,
              status: "paid",
              customerEmail: "bea@example.com",
            }),
          );
      },
    },
  },
  // The operator's sales and tax per month and country: the super admin only.
  "api.admin.tax[.]csv": {
    GET: csvDownload("admin", "selfie-studio-tax"),
  },
  "api.admin.orders.$orderId.refund": {
    POST: {
      kind: "admin",
      ok: 200,
      // Each call gets a paid order of its own (a sale of a creator made for these calls), so only the admin's is refunded.
      prepare: async () => {
        const orderId = await testCheckoutSale([await refundableListing()]);
        return {
          call: {
            path: `/api/admin/orders/${orderId}/refund`,
            params: { orderId },
            json: { reason: "Duplicate purchase" },
          },
          data: { id: orderId },
        };
      },
      check: async ({ role, body, prepared }) => {
        const order = await rowWhere(
          "orders",
          ["status", "refunded_cents"],
          "id",
          prepared.data!.id,
        );
        expect(order.status).toBe(role === "admin" ? "refunded" : "paid");
        if (role === "admin")
          expect(body).toMatchObject({
            id: prepared.data!.id,
            status: "refunded",
            refundReason: "Duplicate purchase",
          });
      },
    },
  },
  "api.admin.refund-requests": {
    GET: adminGet(({ body }) => {
      expect(Array.isArray(body)).toBe(true);
    }),
  },
  ...Object.fromEntries(
    (["approve", "decline"] as const).map((decision) => [
      `api.admin.refund-requests.$id.${decision}`,
      {
        POST: {
          // Each call decides a waiting request of its own (a paid order made for it); only the admin's is decided.
          kind: "admin",
          ok: 200,
          prepare: async () => {
            const id = await openRefundRequest();
            return {
              call: {
                path: `/api/admin/refund-requests/${id}/${decision}`,
                params: { id },
                json: decision === "decline" ? { reason: "The file matches the preview." } : {},
              },
              data: { id },
            };
          },
          check: async ({ role, body, prepared }) => {
            const { status } = await rowWhere("refund_requests", "status", "id", prepared.data!.id);
            const decided = decision === "approve" ? "refunded" : "declined";
            expect(status).toBe(role === "admin" ? decided : "requested");
            if (role === "admin") expect(body).toMatchObject({ status: decided });
          },
        },
      } satisfies Partial<Record<HttpMethod, Entry>>,
    ]),
  ),
  "api.admin.payouts": {
    GET: adminGet(({ body, w }) => {
      const alice = rows(body).find((row) => row.userId === w.alice.user.id);
      expect(alice).toMatchObject({
        email: w.alice.email,
        account: { status: expect.any(String) },
      });
      expect(Number(alice!.earned)).toBeGreaterThan(0);
    }),
  },
  "api.admin.jobs": {
    GET: adminGet(({ body }) => {
      expect(Array.isArray(body)).toBe(true);
    }),
  },
  "api.admin.jobs.$jobId.retry": { POST: adminJobAction("retry", "queued") },
  "api.admin.jobs.$jobId.cancel": { POST: adminJobAction("cancel", "failed") },
  "api.admin.audit": {
    GET: adminGet(({ body }) => {
      expect(body).toMatchObject({ entries: expect.any(Array) });
    }),
  },
  "api.admin.stats": {
    GET: adminGet(({ body }) => {
      expect(body).toMatchObject({
        totalUsers: expect.any(Number),
        totalImages: expect.any(Number),
      });
    }),
  },
  "api.admin.users.$userId.$action": {
    // Each call has its own target, so the admin's ban affects no one else.
    POST: adminOnFreshUser(
      200,
      (id) => ({ path: `/api/admin/users/${id}/ban`, params: { userId: id, action: "ban" } }),
      async ({ role, body, prepared }) => {
        const row = await rowWhere("users", "banned", "id", prepared.data!.id);
        expect(row.banned).toBe(role === "admin" ? 1 : 0);
        if (role === "admin") expect(body).toMatchObject({ id: prepared.data!.id, banned: true });
      },
    ),
  },
  "api.admin.users.$userId": {
    GET: adminGet(
      ({ body, w }) => {
        expect(body).toMatchObject({ id: w.alice.user.id, email: w.alice.email });
      },
      (w) => ({
        call: { path: `/api/admin/users/${w.alice.user.id}`, params: { userId: w.alice.user.id } },
      }),
    ),
    // Each call has its own target, so the admin's erasure affects no one else.
    DELETE: adminOnFreshUser(
      202,
      (id) => ({ path: `/api/admin/users/${id}`, params: { userId: id } }),
      async ({ body, prepared }) => {
        const row = await rowWhere("users", ["erased_at", "email"], "id", prepared.data!.id);
        expect(row.erased_at).not.toBeNull();
        expect(row.email).toBe(`erased-${prepared.data!.id}@invalid`);
        expect(body).toEqual({ userId: prepared.data!.id, status: "erasing" });
      },
    ),
  },
  "api.admin.users": {
    GET: adminGet(({ body, w }) => {
      expect(rows(body).map((user) => user.email)).toContain(w.alice.email);
    }),
    POST: {
      kind: "admin",
      ok: 201,
      prepare: () => newAccountCall("/api/admin/users", "made", "Made", "ByAdmin"),
      check: ({ role, body }) => {
        if (role === "admin") expect(body).toMatchObject({ firstName: "Made" });
      },
    },
  },

  "api.library-link": {
    POST: {
      // The same 202 for any email; bea@example.com bought in the world, so a link is mailed (a mail job).
      kind: "public",
      ok: 202,
      othersMayChange: ["jobs"],
      prepare: sends("/api/library-link", { json: { email: "bea@example.com" } }),
      check: ({ role, body }) => {
        if (role !== "bannedToken")
          expect(body).toEqual({ message: expect.stringContaining("link to its library") });
      },
    },
  },

  "api.token-bundles": {
    POST: {
      // A bundle of Alice's live listings: only she can make it; to anyone else they are not found.
      kind: "own",
      ok: 201,
      expect: { otherToken: 404, otherCookie: 404, admin: 404 },
      prepare: async (w) => ({
        call: {
          path: "/api/token-bundles",
          json: { title: "Matrix bundle", listingIds: await bundleListingsOfAlice(w), price: 8 },
        },
      }),
      check: async ({ role, body, w }) => {
        if (role !== "owner") return;
        const { id } = body as { id: string };
        const row = await rowWhere("bundles", "user_id", "id", id);
        expect(row.user_id).toBe(w.alice.user.id);
      },
    },
  },
  "api.token-discounts": {
    POST: {
      // A code of the caller's own: anyone signed in makes one, owned by them.
      kind: "own",
      ok: 201,
      othersMayChange: ["discount_codes"],
      prepare: async () => ({
        call: {
          path: "/api/token-discounts",
          json: { code: `MATRIX-${Math.random().toString(36).slice(2, 10)}`, percentOff: 10 },
        },
      }),
      check: async ({ role, body, w }) => {
        const { id } = body as { id: string };
        const row = await rowWhere("discount_codes", "user_id", "id", id);
        if (isOwner(role)) expect(row.user_id).toBe(w.alice.user.id);
        else expect(row.user_id).not.toBe(w.alice.user.id);
      },
    },
    GET: {
      // Each caller's own codes: Alice's never reach anyone else.
      kind: "own",
      ok: 200,
      prepare: async (w) => {
        await createDiscount(getDb(), {
          userId: w.alice.user.id,
          input: {
            code: `ALICE-${Math.random().toString(36).slice(2, 10)}`,
            percentOff: 5,
            amountOff: undefined,
          },
          now: new Date(),
        });
        return { call: { path: "/api/token-discounts" } };
      },
      check: async ({ role, body, w }) => {
        const codes = (body as { id: string }[]).map((code) => code.id);
        const alices = await getDb()
          .selectFrom("discount_codes")
          .select("id")
          .where("user_id", "=", w.alice.user.id)
          .where("deleted_at", "is", null)
          .execute();
        if (isOwner(role))
          expect(codes).toEqual(expect.arrayContaining(alices.map((row) => row.id)));
        else for (const row of alices) expect(codes).not.toContain(row.id);
      },
    },
  },
  "api.token-discounts.$id": {
    // One of Alice's codes, made for each call: only she deletes it; anyone else gets the 404 of an unknown id.
    DELETE: deleteFresh("/api/token-discounts/:id", freshDiscountId, async ({ role, prepared }) => {
      const row = await rowWhere("discount_codes", "deleted_at", "id", prepared.data!.id);
      expect(row.deleted_at === null, role).toBe(!isOwner(role));
    }),
  },
  "api.token-bundles.$id": {
    // One of Alice's bundles, made for each call: only she withdraws it; anyone else gets the 404 of an unknown id.
    DELETE: deleteFresh("/api/token-bundles/:id", freshBundleId, async ({ role, prepared }) => {
      const row = await rowWhere("bundles", "status", "id", prepared.data!.id);
      expect(row.status, role).toBe(role === "owner" ? "withdrawn" : "active");
    }),
  },
  "api.follows": {
    POST: {
      // Anyone follows Alice's storefront by email; each role's call is a follow of its own (its own email), and a mail job.
      kind: "public",
      ok: 202,
      othersMayChange: ["follows", "jobs"],
      prepare: async (w, role) => {
        await updateWhere("users", { handle: "alice-matrix" }, "id", w.alice.user.id);
        return {
          call: {
            path: "/api/follows",
            json: { handle: "alice-matrix", email: `follower-${role}@example.com` },
          },
        };
      },
      check: async ({ role, body }) => {
        const follows = await selectWhere(
          "follows",
          "status",
          "email_key",
          `follower-${role}@example.com`.toLowerCase(),
        );
        if (role === "bannedToken") expect(follows).toEqual([]);
        else {
          expect(body).toEqual({ message: expect.stringContaining("confirm") });
          expect(follows).toEqual([{ status: "unconfirmed" }]);
        }
      },
    },
  },

  "api.refund-requests": {
    POST: {
      // Anyone holding a paid order's checkout session asks for its refund; each call gets an order of its own.
      kind: "public",
      ok: 202,
      othersMayChange: ["refund_requests", "jobs"],
      prepare: async () => {
        const { sessionId, orderId } = await refundableSession();
        return {
          call: {
            path: "/api/refund-requests",
            json: { sessionId, reason: "Not what the preview showed." },
          },
          data: { id: orderId },
        };
      },
      check: async ({ role, body, prepared }) => {
        const requests = await selectWhere(
          "refund_requests",
          "status",
          "order_id",
          prepared.data!.id,
        );
        if (role === "bannedToken") expect(requests).toEqual([]);
        else {
          expect(body).toEqual({ id: expect.any(String), status: "requested" });
          expect(requests).toEqual([{ status: "requested" }]);
        }
      },
    },
  },

  "api.provenance.check": {
    POST: {
      // Anyone may check a file; nothing is stored. The portrait carries no Content Credentials.
      kind: "public",
      ok: 200,
      prepare: sends("/api/provenance/check", {
        body: fileForm("file", portrait, "image/png", "portrait.png"),
      }),
      check: ({ role, body }) => {
        if (role !== "bannedToken") expect(body).toEqual({ manifest: false });
      },
    },
  },

  "api.create-checkout-session": {
    POST: {
      kind: "public",
      ok: 200,
      othersMayChange: true,
      prepare: (w) => ({
        call: {
          path: "/api/create-checkout-session",
          json: {
            cartItems: [{ imageId: w.listed.listing.id, licenseType: "standard", price: 0.01 }],
            customerInfo: { name: "Bea Buyer", email: "bea@example.com" },
          },
        },
      }),
      check: async ({ body }) => {
        const { sessionId } = body as { sessionId: string; url: string };
        const order = await rowWhere(
          "orders",
          "total_cents",
          "checkout_session_hash",
          checkoutSessionHash(sessionId),
        );
        expect(order.total_cents).toBe(2500);
      },
    },
  },

  "api.images.optimize": {
    POST: postOnFreshStylized(
      "/api/images/optimize",
      OPTIMIZE_SETTINGS,
      ({ role, body, prepared }) => {
        if (role === "owner")
          expect(body).toMatchObject({
            id: prepared.data!.id,
            format: "jpg",
            quality: 80,
            optimizedUrl: expect.any(String),
          });
      },
    ),
  },

  "api.login": {
    GET: {
      kind: "none",
      ok: 302,
      notJson: true,
      prepare: sends("/api/login?redirectTo=/dashboard"),
      check: ({ response }) => expect(response.headers.get("Location")).toBe("/auth"),
    },
  },

  "api.marketplace-integrations": {
    GET: {
      kind: "own",
      ok: 200,
      check: ({ role, body }) => {
        const names = rows(body).map((row) => row.platform);
        if (isOwner(role))
          expect(rows(body)).toContainEqual({ platform: "OpenSea", isActive: true });
        else expect(names).not.toContain("OpenSea");
      },
    },
  },
  "api.marketplace-listings": { GET: ownList((w) => w.listed.listing.id) },
  "api.token-marketplace-listings": { GET: ownList((w) => w.listed.listing.id) },

  "api.marketplace.launch": {
    POST: postOnFreshStylized("/api/marketplace/launch", LAUNCH_FIELDS, ({ role, body }) => {
      if (role === "owner")
        expect((body as { platforms: { id: string; status: string }[] }).platforms).toEqual([
          expect.objectContaining({ id: "marketplace", status: "live" }),
        ]);
    }),
  },
  "api.marketplace.post": {
    POST: postOnFreshStylized("/api/marketplace/post", POST_FIELDS, ({ role, body }) => {
      if (role === "owner")
        expect((body as { results: unknown[] }).results).toEqual([
          expect.objectContaining({ platform: "marketplace", success: true }),
        ]);
    }),
  },
  "api.marketplace": {
    GET: {
      kind: "public",
      ok: 200,
      check: ({ body, w }) => {
        const items = (body as { items: { id: string; creator: { id: string } }[] }).items;
        expect(items.map((item) => item.id)).toContain(w.listed.listing.id);
        // A banned creator's listings leave the marketplace.
        expect(items.map((item) => item.creator.id)).not.toContain(w.banned.user.id);
      },
    },
  },

  "api.oauth.$platform.authorize": {
    GET: {
      kind: "own",
      ok: 200,
      othersMayChange: ["oauth_states"],
      prepare: sends("/api/oauth/shopify/authorize?shop=alice-store", {
        params: { platform: "shopify" },
      }),
      check: ({ body }) =>
        expect((body as { authUrl: string }).authUrl).toMatch(
          /^https:\/\/alice-store\.myshopify\.com\/admin\/oauth\/authorize\?/,
        ),
    },
  },
  "api.oauth.$platform.callback": {
    GET: {
      // A browser-only route: it answers a page or a redirect, never JSON, and reads only the session cookie.
      kind: "none",
      ok: 302,
      notJson: true,
      ownerVia: "cookie",
      expect: { owner: 200 },
      // Another user's attempt uses up the state (app/features/publishing/integrations/oauth-states.server.test.ts) and changes nothing else.
      othersMayChange: ["oauth_states"],
      prepare: async (w) => {
        const { token } = await freshCredentials(w.alice.user.id);
        const response = await callRoute(
          authorizeRoute.loader,
          makeRequest("/api/oauth/shopify/authorize?shop=alice-store&display=popup", { token }),
          { platform: "shopify" },
        );
        expect(response.status).toBe(200);
        const state = new URL(
          ((await response.json()) as { authUrl: string }).authUrl,
        ).searchParams.get("state")!;
        const shop = "alice-store.myshopify.com";
        const { code } = shopifyMock.issueCode(shop);
        const query = signShopifyCallback({
          code,
          host: Buffer.from("admin.shopify.com/store/alice-store").toString("base64url"),
          shop,
          state,
          timestamp: "1795000000",
        });
        return {
          call: { path: `/api/oauth/shopify/callback?${query}`, params: { platform: "shopify" } },
        };
      },
      check: async ({ role, response, w }) => {
        const shopify = await selectWhere("integrations", "user_id", "platform", "shopify");
        if (role === "owner") {
          expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
          expect(shopify.map((row) => row.user_id)).toEqual([w.alice.user.id]);
        } else {
          expect(response.headers.get("Location")).toMatch(/^\/integrations/);
        }
      },
    },
  },

  "api.oauth.shopify.install": {
    GET: {
      // The Shopify app's App URL: a signed request from Shopify, answered with a redirect; a
      // signed-in creator's install starts their own OAuth state, anyone else's is kept aside.
      kind: "none",
      ok: 302,
      notJson: true,
      ownerVia: "cookie",
      othersMayChange: ["oauth_states", "shopify_installs"],
      prepare: () => {
        const query = signShopifyCallback({
          shop: "matrix-install.myshopify.com",
          timestamp: String(Math.floor(Date.now() / 1000)),
        });
        return { call: { path: `/api/oauth/shopify/install?${query}` } };
      },
      check: ({ response }) =>
        expect(response.headers.get("Location")).toMatch(
          /^https:\/\/matrix-install\.myshopify\.com\/admin\/oauth\/authorize\?/,
        ),
    },
  },

  "api.openapi[.]json": {
    GET: {
      kind: "public",
      ok: 200,
      check: ({ body }) =>
        expect(body).toMatchObject({ openapi: "3.1.0", paths: expect.any(Object) }),
    },
  },

  "api.payment-status.$sessionId": {
    GET: {
      kind: "public",
      ok: 200,
      prepare: (w) => ({
        call: {
          path: `/api/payment-status/${w.sale.sessionId}`,
          params: { sessionId: w.sale.sessionId },
        },
      }),
      check: ({ body }) =>
        expect(body).toMatchObject({ success: true, paymentStatus: "completed" }),
    },
  },

  "api.publications.$id.download": {
    GET: {
      kind: "resource",
      ok: 200,
      notJson: true,
      prepare: (w) => {
        const url = new URL(w.mintKit.downloadUrl);
        return {
          call: { path: url.pathname + url.search, params: { id: w.mintKit.publicationId } },
          bogus: {
            path: `/api/publications/${bogusId}/download${url.search}`,
            params: { id: bogusId },
          },
        };
      },
      check: ownerGetsType("application/zip"),
    },
  },
  "api.publications": {
    GET: {
      kind: "resource",
      ok: 200,
      prepare: (w) => ({
        call: { path: `/api/publications?imageId=${w.listed.stylized.id}` },
        bogus: { path: `/api/publications?imageId=${bogusId}` },
      }),
      check: ({ role, body }) => {
        if (isOwner(role)) {
          expect(
            (body as { platforms: { id: string; status: string }[] }).platforms,
          ).toContainEqual(expect.objectContaining({ id: "opensea", status: "ready_to_mint" }));
        }
      },
    },
  },

  "api.reports": {
    POST: {
      // Anyone may report a live listing; each role's call is a report of its own (its own email), and a mail job.
      kind: "public",
      ok: 202,
      othersMayChange: ["reports", "jobs"],
      prepare: (w, role) => ({
        call: {
          path: "/api/reports",
          json: {
            listingId: w.listed.listing.id,
            reason: "other",
            email: `reporter-${role}@example.com`,
            details: "A matrix report.",
          },
        },
      }),
      check: ({ role, body }) => {
        if (role !== "bannedToken") expect(body).toEqual({ message: expect.any(String) });
      },
    },
  },
  "api.reports.confirm": {
    POST: {
      // Each call confirms a report of its own (a copyright report: nothing is hidden).
      kind: "public",
      ok: 200,
      othersMayChange: ["reports"],
      prepare: async (w) => {
        const token = crypto.randomBytes(16).toString("hex");
        await insertReport(w.listed.listing, { token, status: "unconfirmed" });
        return { call: { path: "/api/reports/confirm", json: { token } } };
      },
      check: ({ role, body }) => {
        if (role !== "bannedToken") expect(body).toMatchObject({ status: "open" });
      },
    },
  },
  "api.admin.reports": {
    GET: adminGet(({ body }) => {
      expect(Array.isArray(body)).toBe(true);
    }),
  },
  "api.admin.reports.$id": {
    POST: {
      // Each call dismisses an open report of its own (the reporter is mailed, the audit log written).
      kind: "admin",
      ok: 200,
      prepare: async (w) => {
        const id = await insertReport(w.listed.listing, { status: "open" });
        return {
          call: {
            path: `/api/admin/reports/${id}`,
            params: { id },
            json: { decision: "dismiss", note: "Not a problem." },
          },
          data: { id },
        };
      },
      check: ({ role, body }) => {
        if (role === "admin") expect(body).toMatchObject({ status: "closed", decision: "dismiss" });
      },
    },
  },
  "api.forgot-password": {
    POST: {
      // The same 202 for every caller and email; a known account's link is a queued mail (a job row).
      kind: "public",
      ok: 202,
      othersMayChange: ["jobs"],
      prepare: async () => {
        const target = await createTestUser();
        return {
          call: { path: "/api/forgot-password", json: { email: target.user.email } },
          data: { email: target.user.email },
        };
      },
      check: async ({ body, prepared }) => {
        expect(body).toEqual({ message: RESET_REQUESTED });
        const mails = await selectWhere("jobs", "payload", "kind", "mail.send");
        expect(
          mails.filter((row) => JSON.parse(row.payload).to === prepared.data!.email),
        ).toHaveLength(1);
      },
    },
  },
  "api.reset-password": {
    POST: {
      // The token is the credential: whoever holds a valid one sets that account's password.
      kind: "public",
      ok: 204,
      notJson: true,
      othersMayChange: ["users", "sessions", "api_tokens"],
      prepare: async () => {
        const target = await createTestUser();
        const token = signResetToken(getConfig().appSecret, target.user, new Date());
        return {
          call: { path: "/api/reset-password", json: { token, password: "set-by-link" } },
          data: { id: target.user.id },
        };
      },
      check: async ({ prepared }) => {
        // Every session and token of the account ended with the reset.
        const tokens = await selectWhere("api_tokens", "user_id", "user_id", prepared.data!.id);
        const sessions = await selectWhere("sessions", "user_id", "user_id", prepared.data!.id);
        expect([...tokens, ...sessions]).toEqual([]);
      },
    },
  },
  "api.register": {
    POST: {
      // Registration is closed unless the operator opens it (REGISTRATION=open).
      kind: "public",
      ok: 403,
      prepare: () => newAccountCall("/api/register", "new", "New", "Person"),
      check: ({ role, body }) => {
        if (role !== "bannedToken") expect(body).toEqual({ message: "Registration is closed" });
      },
    },
  },

  "api.token-earnings": {
    GET: {
      kind: "own",
      ok: 200,
      check: ({ role, body, w }) => {
        const { records } = body as { records: { id: string }[]; totalEarnings: string };
        if (isOwner(role)) expect(records.map((record) => record.id)).toContain(w.sale.earningId);
        else expect(records).toEqual([]);
      },
    },
  },
  "api.token-payouts": {
    GET: {
      kind: "own",
      ok: 200,
      check: ({ role, body }) => {
        const payouts = body as {
          account: { provider: string; status: string };
          balance: Record<string, string>;
          transfers: unknown[];
        };
        expect(payouts.account.provider).toBe("test");
        // Alice's sale is hers alone; nobody else is shown a share of it.
        if (isOwner(role)) expect(Number(payouts.balance.earned)).toBeGreaterThan(0);
        else
          expect(payouts.balance).toEqual({
            earned: "0",
            owed: "0",
            transferred: "0",
            held: "0",
            reversed: "0",
          });
        if (role !== "owner" && role !== "ownerCookie") expect(payouts.transfers).toEqual([]);
      },
    },
  },
  "api.account.export": {
    POST: {
      kind: "own",
      ok: 202,
      // Each caller asks for an export of their own data: their own row and job.
      othersMayChange: ["account_exports", "jobs"],
      check: async ({ role, body, w }) => {
        expect(body).toMatchObject({ id: expect.any(String), status: "pending", url: null });
        const owner = callerOf(w, role);
        if (owner) {
          const row = await rowWhere(
            "account_exports",
            "user_id",
            "id",
            (body as { id: string }).id,
          );
          expect(row.user_id).toBe(owner.user.id);
        }
      },
    },
  },
  "api.account.export.$id": {
    GET: {
      kind: "resource",
      ok: 200,
      prepare: byId("/api/account/export/:id", (w) => aliceExportId(w)),
      check: ({ role, body }) => {
        if (isOwner(role))
          expect(body).toMatchObject({ id: expect.any(String), status: "pending" });
      },
    },
  },
  "api.account.export.$id.download": {
    GET: {
      kind: "resource",
      ok: 200,
      notJson: true,
      prepare: byId("/api/account/export/:id/download", (w) => aliceReadyExportId(w)),
      check: ownerGetsType("application/zip"),
    },
  },
  "api.payouts.onboard": {
    POST: {
      kind: "own",
      ok: 200,
      // Each caller gets a payout account of their own (the test provider keeps its accounts here too).
      othersMayChange: ["payout_accounts", "test_payout_accounts"],
      // A caller without a payout account names the country they live in.
      prepare: sends("/api/payouts/onboard", { json: { country: "US" } }),
      check: async ({ role, body, w }) => {
        expect((body as { url: string }).url).toBe("http://localhost:3000/payouts/test-onboarding");
        const owner = callerOf(w, role);
        if (owner)
          expect(
            await selectWhere("payout_accounts", "user_id", "user_id", owner.user.id),
          ).toHaveLength(1);
      },
    },
  },
  "api.token-stats": {
    GET: {
      kind: "own",
      ok: 200,
      check: ({ role, body }) => {
        const stats = body as Record<string, number | string>;
        if (isOwner(role)) {
          expect(stats).toMatchObject({ totalImages: expect.any(Number), totalSales: 1 });
          expect(Number(stats.totalListed)).toBeGreaterThan(0);
        } else {
          // Bob and the admin have listed and sold nothing (their own uploads may count as images).
          const { totalListed, totalSales, totalEarnings, totalViews } = stats;
          expect([totalListed, totalSales, totalEarnings, totalViews].map(Number)).toEqual([
            0, 0, 0, 0,
          ]);
        }
      },
    },
  },

  "api.token-images.$id.stylize": {
    POST: freshAction(
      "/api/token-images/:id/stylize",
      freshImageId,
      (body) => expect(body).toEqual({ id: expect.any(String), status: "pending" }),
      { json: { style: "cartoon" } },
    ),
  },
  "api.token-images.$id.stylize-all": {
    POST: freshAction("/api/token-images/:id/stylize-all", freshImageId, (body) =>
      expect(rows(body)).toHaveLength(4),
    ),
  },
  "api.token-stylized-images.$id.reroll": {
    POST: freshAction("/api/token-stylized-images/:id/reroll", freshStylizedId, (body) =>
      expect(body).toMatchObject({ id: expect.any(String) }),
    ),
  },
  "api.token-images.$id": {
    GET: {
      kind: "resource",
      ok: 200,
      prepare: byId("/api/token-images/:id", (w) => w.listed.imageId),
      check: ({ role, body, w }) => {
        if (isOwner(role)) {
          expect(body).toMatchObject({ id: w.listed.imageId, userId: w.alice.user.id });
        }
      },
    },
    DELETE: deleteOwnRow((id) => `/api/token-images/${id}`, "images", freshImageId),
  },
  "api.token-images": { GET: ownList((w) => w.listed.imageId) },
  "api.token-images.upload": {
    POST: ownUpload(201, "/api/token-images/upload", "selfie.png", ({ role, body, w }) => {
      const owner = callerOf(w, role);
      if (owner) expect(body).toMatchObject({ userId: owner.user.id, mimeType: "image/png" });
    }),
  },

  "api.token-login": {
    POST: {
      kind: "public",
      ok: 200,
      othersMayChange: ["api_tokens"],
      prepare: (w) => ({
        call: {
          path: "/api/token-login",
          json: { email: w.alice.email, password: w.alice.password },
        },
      }),
      check: ({ role, body, w }) => {
        if (role !== "bannedToken")
          expect(body).toMatchObject({ token: expect.any(String), user: { id: w.alice.user.id } });
      },
    },
  },
  "api.token-logout": {
    POST: {
      kind: "own",
      ok: 204,
      notJson: true,
      othersMayChange: ["api_tokens"],
      check: async ({ role, prepared }) => {
        // The token the call was made with no longer works.
        if (role === "owner" || role === "otherToken" || role === "admin") {
          const after = await callRoute(
            tokenUserRoute.loader,
            makeRequest("/api/token-user", { token: prepared.data!.token }),
          );
          expect(after.status).toBe(401);
        }
      },
    },
  },

  "api.token-marketplace-integrations.$platform": {
    DELETE: {
      kind: "own",
      ok: 204,
      notJson: true,
      prepare: async (w) => {
        await ensureAliceRarible(w);
        return {
          call: {
            path: "/api/token-marketplace-integrations/rarible",
            params: { platform: "rarible" },
          },
        };
      },
      check: async ({ role, w }) => {
        const row = await aliceIntegration(w, "rarible");
        expect(Boolean(row)).toBe(role !== "owner");
      },
    },
  },
  "api.token-marketplace-integrations": {
    GET: {
      kind: "own",
      ok: 200,
      check: ({ role, body }) => {
        if (isOwner(role))
          expect(rows(body)).toContainEqual({ platform: "opensea", isActive: true });
        else expect(rows(body).map((row) => row.platform)).not.toContain("opensea");
      },
    },
    POST: {
      kind: "own",
      ok: 201,
      othersMayChange: ["integrations"],
      prepare: sends("/api/token-marketplace-integrations", {
        json: { platform: "mintable", apiKey: "mintable-key-1234", walletAddress: OTHER_WALLET },
      }),
      check: async ({ role, body, w }) => {
        expect(JSON.stringify(body)).not.toContain("mintable-key-1234");
        if (role === "owner") {
          const row = await aliceIntegration(w, "mintable");
          expect(row?.id).toBe((body as { id: string }).id);
        }
      },
    },
  },

  "api.token-stylized-images.$id": {
    GET: {
      kind: "resource",
      ok: 200,
      prepare: byId("/api/token-stylized-images/:id", (w) => w.listed.stylized.id),
      check: ({ role, body, w }) => {
        if (isOwner(role))
          expect(body).toMatchObject({ id: w.listed.stylized.id, status: "completed" });
      },
    },
    DELETE: deleteOwnRow(
      (id) => `/api/token-stylized-images/${id}`,
      "stylized_images",
      freshStylizedId,
    ),
  },
  "api.token-stylized-images": { GET: ownList((w) => w.listed.stylized.id) },
  "api.token-user": {
    GET: ownRead(({ role, body, w }) => {
      const expected = callerOf(w, role);
      if (expected)
        expect(body).toMatchObject({
          id: expected.user.id,
          email: expected.email,
          isAdmin: role === "admin",
        });
    }),
  },

  "api.webhooks.stripe": {
    // Stripe's signature is the credential; a bearer header or cookie means nothing here.
    POST: webhook(
      () => {
        const payload = JSON.stringify({
          id: `evt_${crypto.randomBytes(8).toString("hex")}`,
          object: "event",
          type: "customer.created",
          created: Math.floor(Date.now() / 1000),
          livemode: false,
          data: { object: { id: "cus_test", object: "customer" } },
        });
        return jsonWebhook("/api/webhooks/stripe", payload, {
          "Stripe-Signature": signPayload(payload, WEBHOOK_SECRET),
        });
      },
      ({ body }) => expect(body).toEqual({ received: true, outcome: "ignored" }),
    ),
  },
  "api.webhooks.shopify": {
    // The HMAC under the app's client secret is the credential; a bearer header or cookie means nothing here.
    POST: webhook(
      () => {
        const payload = JSON.stringify({
          shop_id: 1,
          shop_domain: "matrix-store.myshopify.com",
          customer: { id: 1 },
          orders_to_redact: [],
        });
        return jsonWebhook("/api/webhooks/shopify", payload, {
          "X-Shopify-Topic": "customers/redact",
          "X-Shopify-Shop-Domain": "matrix-store.myshopify.com",
          "X-Shopify-Webhook-Id": crypto.randomUUID(),
          "X-Shopify-Triggered-At": new Date().toISOString(),
          "X-Shopify-Hmac-Sha256": crypto
            .createHmac("sha256", SHOPIFY_TEST_CLIENT_SECRET)
            .update(payload)
            .digest("base64"),
        });
      },
      ({ body }) => expect(body).toMatchObject({ received: true }),
    ),
  },
  // The creator's analytics: each caller sees only their own sales.
  "api.token-analytics": {
    GET: {
      kind: "own",
      ok: 200,
      check: ({ role, body }) => {
        const { days, listings } = body as {
          days: { sales: number }[];
          listings: { sales: number }[];
        };
        expect(days).toHaveLength(30);
        const sold = days.reduce((sum, day) => sum + day.sales, 0);
        if (isOwner(role)) expect(sold).toBeGreaterThan(0);
        else {
          expect(sold).toBe(0);
          expect(listings.every((listing) => listing.sales === 0)).toBe(true);
        }
      },
    },
  },

  // Each caller's own sales as a CSV file (their rows only; the file's rows are tested in sales-csv.server.test.ts).
  "api.token-analytics.sales[.]csv": {
    GET: csvDownload("own", "selfie-studio-sales"),
  },

  // Model releases (Adobe Stock): one of Alice's images; B and the admin get 404.
  "api.token-stylized-images.$id.model-release": {
    GET: {
      kind: "resource",
      ok: 200,
      notJson: true,
      prepare: aliceSignedRelease,
      check: ownerGetsType("application/pdf"),
    },
    POST: {
      kind: "resource",
      ok: 201,
      prepare: (w) => {
        const json = {
          ...RELEASE_DETAILS,
          modelName: "Alice Example",
          signedOn: "2026-11-26",
          signature: "Alice Example",
          confirm: true,
        };
        return idAndBogus(modelReleasePath, w.listed.stylized.id, { json });
      },
      check: ({ role, body }) => {
        if (isOwner(role))
          expect(body).toMatchObject({ kind: "signed", modelName: "Alice Example" });
      },
    },
    PUT: {
      kind: "resource",
      ok: 201,
      prepare: async (w) => {
        const pdf = await PDFDocument.create();
        pdf.addPage();
        const body = fileForm("release", await pdf.save(), "application/pdf", "release.pdf");
        return idAndBogus(modelReleasePath, w.listed.stylized.id, { body });
      },
      check: ({ role, body }) => {
        if (isOwner(role)) expect(body).toMatchObject({ kind: "uploaded" });
      },
    },
  },
};

const ROLE_ORDER: Role[] = [
  "anonymous",
  "bannedToken",
  "bannedCookie",
  "otherToken",
  "otherCookie",
  "admin",
  "owner",
  "ownerCookie",
];

function expectedStatus(entry: Entry, role: Role): number {
  const override = entry.expect?.[role];
  if (override !== undefined) return override;
  const banned = role === "bannedToken" || role === "bannedCookie";
  switch (entry.kind) {
    case "none":
      return entry.ok;
    case "public":
      return role === "bannedToken" ? 401 : entry.ok;
    case "own":
      return role === "anonymous" || banned ? 401 : entry.ok;
    case "resource":
      if (role === "anonymous" || banned) return 401;
      return isOwner(role) ? entry.ok : 404;
    case "admin":
      if (role === "anonymous" || banned) return 401;
      return role === "admin" ? entry.ok : 403;
  }
}

/** The caller whose call is allowed to change things freely (the owner, or the admin on admin routes). */
function isPrivileged(entry: Entry, role: Role) {
  return entry.kind === "admin" ? role === "admin" : isOwner(role);
}

/** Whether this answer may show Alice's data: her own, the admin's portal, and public pages. */
function mayShowAlice(entry: Entry, role: Role, status: number) {
  if (status >= 400) return false;
  if (isOwner(role)) return true;
  return (
    entry.kind === "public" || entry.kind === "none" || (entry.kind === "admin" && role === "admin")
  );
}

let w: World;
let stopWorld: () => Promise<void>;
const server = setupServer(...shopifyHandlers);

beforeAll(async () => {
  server.listen({ onUnhandledRequest: "error" });
  ({ w, stop: stopWorld } = await startWorld({
    SHOPIFY_CLIENT_ID: SHOPIFY_TEST_CLIENT_ID,
    SHOPIFY_CLIENT_SECRET: SHOPIFY_TEST_CLIENT_SECRET,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
  }));
});
afterAll(async () => {
  await stopWorld();
  server.close();
});

async function credentialsFor(
  role: Role,
  entry: Entry,
): Promise<{ token?: string; cookie?: string }> {
  switch (role) {
    case "anonymous":
      return {};
    case "bannedToken":
      return { token: w.banned.token };
    case "bannedCookie":
      return { cookie: w.banned.cookie };
    case "otherToken":
      return { token: (await freshCredentials(w.bob.user.id)).token };
    case "otherCookie":
      return { cookie: (await freshCredentials(w.bob.user.id)).cookie };
    case "admin":
      return { token: (await freshCredentials(w.admin.user.id)).token };
    case "owner": {
      const fresh = await freshCredentials(w.alice.user.id);
      return entry.ownerVia === "cookie" ? { cookie: fresh.cookie } : { token: fresh.token };
    }
    case "ownerCookie":
      return { cookie: (await freshCredentials(w.alice.user.id)).cookie };
  }
}

async function send(
  module: RouteModule,
  method: HttpMethod,
  call: Call,
  auth: { token?: string; cookie?: string },
) {
  const request = makeRequest(call.path, {
    method,
    ...auth,
    ...(call.json !== undefined ? { json: call.json } : {}),
    ...(call.body ? { body: call.body() } : {}),
    headers: call.headers,
  });
  return callApiRoute(module, request, call.params ?? {});
}

async function runEntry(route: ApiPath, method: HttpMethod, entry: Entry) {
  const module = await loadRoute(route);
  const roles = ROLE_ORDER.filter(
    (role) => role !== "ownerCookie" || (method === "GET" && entry.ownerVia !== "cookie"),
  );
  // Refused callers first, so their calls meet the data as the owner has it.
  roles.sort((a, b) => Number(isPrivileged(entry, a)) - Number(isPrivileged(entry, b)));
  for (const role of roles) {
    const expected = expectedStatus(entry, role);
    const prepared = entry.prepare
      ? await entry.prepare(w, role)
      : { call: { path: route.pattern } };
    const stand = await entry.caller?.(role);
    const auth = stand
      ? { token: stand.token, cookie: stand.cookie }
      : await credentialsFor(role, entry);
    prepared.data = {
      ...prepared.data,
      ...(auth.token ? { token: auth.token } : {}),
      ...(stand ? { userId: stand.userId } : {}),
    };
    await publishJobsIdle();
    const before = await fingerprint();
    const response = await send(module, method, prepared.call, auth);
    const text = await response.text();
    await publishJobsIdle();
    const after = await fingerprint();
    const label = `${method} ${route.pattern} as ${role}`;

    expect(response.status, `${label}: ${text.slice(0, 300)}`).toBe(expected);
    const isJson = /^application\/json\b/.test(response.headers.get("Content-Type") ?? "");
    let body: unknown = null;
    if (response.status >= 400 || !entry.notJson) {
      expect(isJson, `${label} answers JSON`).toBe(true);
      body = JSON.parse(text);
    }
    if (response.status >= 400) {
      expect(body, label).toEqual({ message: expect.any(String) });
      expectUnchanged(
        before,
        after,
        label,
        entry.othersMayChange === true ? [] : (entry.othersMayChange ?? []),
      );
    } else if (!isPrivileged(entry, role) && entry.othersMayChange !== true) {
      expectUnchanged(before, after, label, entry.othersMayChange ?? []);
    }
    if (!mayShowAlice(entry, role, response.status)) {
      const seen = text + (response.headers.get("Location") ?? "");
      for (const canary of w.canaries)
        expect(seen.includes(canary), `${label} shows Alice's ${canary}`).toBe(false);
    }
    // Another user's resource is answered exactly as one that does not exist.
    if (entry.kind === "resource" && expected === 404 && prepared.bogus) {
      const unknown = await send(module, method, prepared.bogus, await credentialsFor(role, entry));
      expect(unknown.status, `${label} (unknown id)`).toBe(response.status);
      expect(await unknown.text(), `${label} (unknown id)`).toBe(text);
    }
    // What a refused call left alone is the fingerprint's to show; checks look at answers that went through.
    if (response.status < 400) await entry.check?.({ role, body, w, prepared, response });
  }
}

const routes = apiPaths();

describe("authorization matrix", () => {
  it("has an entry for every /api route file, and each route answers a JSON 405 for every other method", async () => {
    const ids = routes.map((route) => route.id);
    expect(ids.length).toBeGreaterThan(30);
    expect(ids, "routes without a matrix entry, or entries for routes that are gone").toEqual(
      Object.keys(MATRIX).sort(),
    );
    const owner = await freshCredentials(w.alice.user.id);
    for (const route of routes) {
      const module = await loadRoute(route);
      for (const method of HTTP_METHODS) {
        if (MATRIX[route.id][method]) continue;
        const before = await fingerprint();
        const response = await callApiRoute(
          module,
          makeRequest(route.pattern, { method, token: owner.token }),
          {},
        );
        expect(response.status, `${method} ${route.pattern}`).toBe(405);
        expect(response.headers.get("Content-Type")).toMatch(/^application\/json\b/);
        expect(await response.json()).toEqual({ message: expect.any(String) });
        expectUnchanged(before, await fingerprint(), `${method} ${route.pattern}`);
      }
    }
  });

  for (const route of routes) {
    for (const [method, entry] of Object.entries(MATRIX[route.id] ?? {}) as [HttpMethod, Entry][]) {
      it(`${method} ${route.pattern}`, () => runEntry(route, method, entry));
    }
  }
});

describe("banned accounts", () => {
  it("cannot sign in again (403), and the credentials made before the ban stay dead (401)", async () => {
    const before = await fingerprint();
    const login = await callRoute(
      tokenLoginRoute.action,
      makeRequest("/api/token-login", {
        json: { email: w.banned.email, password: w.banned.password },
      }),
    );
    expect(login.status).toBe(403);
    expect(await login.json()).toEqual({ message: expect.any(String) });
    // No token was issued for the banned account.
    expectUnchanged(before, await fingerprint(), "a banned login", ["auth_failures"]);
    for (const auth of [{ token: w.banned.token }, { cookie: w.banned.cookie }]) {
      const me = await callRoute(tokenUserRoute.loader, makeRequest("/api/token-user", auth));
      expect(me.status).toBe(401);
    }
    const tokens = await selectWhere("api_tokens", "user_id", "user_id", w.banned.user.id);
    expect(tokens).toEqual([]);
  });
});
