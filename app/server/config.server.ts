import fs from "node:fs";
import path from "node:path";
import crypto from "node:crypto";
import { z } from "zod";
import { STYLE_IDS } from "~/lib/styles";

/**
 * The one place configuration is read. Every setting is parsed once by zod and
 * exported as a typed object; a bad value stops the start with a message that
 * names the variable. README.md lists every setting.
 */

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const boolean = z
  .enum(["true", "false", "1", "0", ""])
  .optional()
  .transform((value) => value === "true" || value === "1");

/** FAL_STYLES: JSON, per style, e.g. {"anime":{"prompt":"...","model":"fal-ai/...","input":{"guidance_scale":4}}}. */
const falStyleOverrides = optionalText.pipe(
  z
    .string()
    .transform((text, ctx) => {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: "custom", message: "must be a JSON object keyed by style" });
        return z.NEVER;
      }
    })
    .pipe(
      z.partialRecord(
        z.enum(STYLE_IDS),
        z
          .object({
            model: z.string().trim().min(1).optional(),
            prompt: z.string().trim().min(1).optional(),
            input: z.record(z.string(), z.unknown()).optional(),
            imageField: z.enum(["image_url", "image_urls"]).optional(),
          })
          .strict(),
      ),
    )
    .optional(),
);

const schema = z.object({
  NODE_ENV: z.enum(["development", "production", "test"]).default("development"),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  APP_SECRET: optionalText.pipe(
    z.string().min(32, "must be at least 32 characters (try: openssl rand -hex 32)").optional(),
  ),
  PUBLIC_URL: optionalText.pipe(z.url("must be a full URL such as https://selfie.example").optional()),
  ADMIN_EMAIL: z.string().trim().toLowerCase().pipe(z.email("must be an email address")).default("admin@selfie.studio"),
  ADMIN_PASSWORD: optionalText.pipe(z.string().min(6, "must be at least 6 characters").optional()),
  REGISTRATION: z.enum(["closed", "open"]).default("closed"),
  SESSION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  TOKEN_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  TRUST_PROXY: boolean,
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
  /** How long a running job's lease lasts (renewed while it runs); after a crash its job is taken up again this long after. */
  JOB_LEASE_SECONDS: z.coerce.number().int().min(3).max(3600).default(60),
  FAL_KEY: optionalText,
  /** The fal.ai model for every style (default: the per-style table in app/server/styling/fal-models.server.ts). */
  FAL_MODEL: optionalText,
  FAL_STYLES: falStyleOverrides,
  /** How long one fal.ai styling request may take, queue included, before it is cancelled. */
  FAL_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(120),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_WEBHOOK_SECRET: optionalText,
  SHOPIFY_CLIENT_ID: optionalText,
  SHOPIFY_CLIENT_SECRET: optionalText,
});

export type Config = Omit<z.output<typeof schema>, "APP_SECRET"> & {
  /** Absolute path of the data directory. */
  dataDir: string;
  databaseFile: string;
  filesDir: string;
  /** The app secret: from APP_SECRET, or generated once and kept under DATA_DIR. */
  appSecret: string;
  isProduction: boolean;
};

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`),
    );
  }
  const values = parsed.data;
  const dataDir = path.resolve(values.DATA_DIR);
  fs.mkdirSync(dataDir, { recursive: true });
  const filesDir = path.join(dataDir, "files");
  fs.mkdirSync(filesDir, { recursive: true });
  const { APP_SECRET, ...rest } = values;
  return {
    ...rest,
    dataDir,
    databaseFile: path.join(dataDir, "selfie-studio.sqlite"),
    filesDir,
    appSecret: APP_SECRET ?? readOrCreateSecret(dataDir),
    isProduction: values.NODE_ENV === "production",
  };
}

/** The secret is generated once per data directory and never leaves it. */
function readOrCreateSecret(dataDir: string): string {
  const file = path.join(dataDir, "app-secret");
  try {
    const existing = fs.readFileSync(file, "utf8").trim();
    if (existing.length >= 32) return existing;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  const secret = crypto.randomBytes(32).toString("hex");
  try {
    fs.writeFileSync(file, secret + "\n", { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      return fs.readFileSync(file, "utf8").trim();
    }
    throw error;
  }
}

let current: Config | undefined;

/** The parsed configuration of this process. */
export function getConfig(): Config {
  current ??= parseConfig(process.env);
  return current;
}
