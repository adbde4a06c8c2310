import { z } from "zod";
import { emailAddressField } from "~/lib/email-field";
import {
  formBoolean,
  MAX_TAGS,
  priceInput,
  tierPricesRule,
} from "~/features/market/catalog/listing-schema";
import { MAX_PRICE_CENTS, MIN_PRICE_CENTS } from "~/lib/money";
import { holdsOnlyXmlText, nonXmlTextMessage } from "~/lib/xml-text";
import {
  EVM_ADDRESS,
  findPlatform,
  isPlatformId,
  PLATFORM_IDS,
  PLATFORMS,
} from "~/features/publishing/platforms";
import type { PlatformId } from "~/features/publishing/platforms";
import { COPY } from "~/features/publishing/types";
import { INVALID_SHOP_DOMAIN, normalizeShopDomain } from "~/lib/shop-domain";

/**
 * One schema per publishing form, used by the browser (conform) and the
 * server (procedures, JSON API) alike.
 */

const lastValue = (value: unknown) => (Array.isArray(value) ? value[value.length - 1] : value);

/**
 * A list of platform ids from JSON (array) or a form (one value or several):
 * at least one, each a known id (an unknown one is named in the message).
 */
function platformList(emptyMessage: string) {
  return z.preprocess(
    (value) =>
      value === undefined || value === null || value === ""
        ? []
        : Array.isArray(value)
          ? value
          : [value],
    z
      .array(
        z
          .string("Unknown platform")
          .trim()
          .meta({ enum: [...PLATFORM_IDS] }),
        emptyMessage,
      )
      .min(1, emptyMessage)
      .max(20)
      .transform((ids, context) => {
        const seen: PlatformId[] = [];
        for (const id of ids) {
          if (!isPlatformId(id)) {
            context.addIssue({ code: "custom", message: `Unknown platform: ${id.slice(0, 40)}` });
            return z.NEVER;
          }
          if (!seen.includes(id)) seen.push(id);
        }
        return seen;
      }),
  );
}

const imageId = z.string("Choose an image").trim().min(1, "Choose an image").max(100);
const title = z
  .string(COPY.titleRequired.description)
  .trim()
  .min(1, COPY.titleRequired.description)
  .max(120, "Please use at most 120 characters")
  // The title is drawn into the listing's social card (SVG).
  .refine(holdsOnlyXmlText, nonXmlTextMessage("The title"));
const description = z
  .string()
  .trim()
  .max(2000, "Please use at most 2000 characters")
  .optional()
  .default("");

/**
 * Tags: an array or comma-separated text (a form's single field arrives as
 * either); every value split by commas, trimmed, empties dropped.
 */
export const tagsList = z.preprocess(
  (value) => {
    if (value === undefined || value === null) return [];
    const values = Array.isArray(value) ? value : [value];
    // Trimmed and without empties before the item check: a trailing comma
    // ("a, b,") or a doubled one ("a,, b") leaves empty pieces, which the
    // form parser would otherwise read as missing values.
    return (
      values
        .flatMap((item) => (typeof item === "string" ? item.split(",") : [item]))
        .map((item) => (typeof item === "string" ? item.trim() : item))
        // A JSON null stays, and is refused as not text.
        .filter((item) => item !== "" && item !== undefined)
    );
  },
  z.array(z.string("Tags are text").max(200)).transform((tags) => {
    const seen = new Set<string>();
    for (const tag of tags.map((t) => t.trim()).filter(Boolean)) {
      if (seen.size < MAX_TAGS) seen.add(tag.slice(0, 40));
    }
    return [...seen];
  }),
);

function toNumber(value: unknown): unknown {
  const raw = lastValue(value);
  if (typeof raw === "string") {
    const text = raw.trim().replace(/^\$/, "");
    return text === "" ? undefined : /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
  }
  return raw;
}

/**
 * The price of a launch or a listing: an amount the creator typed, more than 0
 * (min 0.01) and at most the maximum, in dollars rounded to cents. Empty, 0,
 * negative or text is refused with the range (PRICE_RANGE_ERROR). (Schemas
 * answer dollars, not cents, so that parsing their own output again changes
 * nothing.)
 */
export const salePrice = z
  .preprocess(
    toNumber,
    z
      .number(COPY.invalidPrice)
      .refine(
        (dollars) => Number.isFinite(dollars) && Math.round(dollars * 100) >= MIN_PRICE_CENTS,
        COPY.invalidPrice,
      )
      .refine((dollars) => dollars <= MAX_PRICE_CENTS / 100, COPY.invalidPrice)
      .transform((dollars) => Math.round(dollars * 100) / 100),
  )
  // The refinements above, as the API's document shows them.
  .meta({ minimum: MIN_PRICE_CENTS / 100, maximum: MAX_PRICE_CENTS / 100 });

/** What both the launch form and the list-for-sale dialog ask of the sale: the image, its words and its prices. */
const saleFields = {
  imageId,
  title,
  description,
  price: salePrice,
  /** The Extended licence's price in dollars, at least `price`; absent: not offered (decision 101). */
  extendedPrice: priceInput,
  /** The Exclusive licence's price in dollars, at least `price`; absent: not offered. */
  exclusivePrice: priceInput,
};

export const launchSchema = z
  .object({
    ...saleFields,
    tags: tagsList,
    enableLicensing: formBoolean.transform((value) => value ?? true),
    enableNFT: formBoolean.transform((value) => value ?? false),
    platforms: platformList(COPY.selectPlatforms.description),
  })
  .superRefine(tierPricesRule);
export type LaunchInput = z.output<typeof launchSchema>;

/** The list-for-sale dialog: price greater than 0 (min 0.01, step 0.01). */
export const postSchema = z
  .object({
    ...saleFields,
    platforms: platformList(COPY.selectOnePlatform.description),
  })
  .superRefine(tierPricesRule);
export type PostInput = z.output<typeof postSchema>;

/**
 * Manual setup: all shown fields required; an EVM address checked for format.
 * `apiKey` carries the platform's secret (Adobe Stock: the SFTP password, with
 * the SFTP `username` beside it).
 */
/** The platforms the manual setup form connects: open ones that take a key, an address or a login. */
const MANUAL_PLATFORM_IDS = PLATFORMS.filter(
  (platform) => platform.manualFields.length > 0 && !platform.closed,
).map((platform) => platform.id);

export const manualIntegrationSchema = z
  .object({
    platform: z
      .string("Choose a platform")
      .trim()
      .min(1, "Choose a platform")
      .max(40)
      .meta({ enum: MANUAL_PLATFORM_IDS }),
    apiKey: z
      .string("Please enter your API key")
      .trim()
      .max(500, "That key is too long")
      .optional(),
    walletAddress: z.string().trim().max(100).optional(),
    shopDomain: z.string().trim().max(200).optional(),
    username: z.string().trim().max(200, "That username is too long").optional(),
  })
  .transform((value, context) => {
    const platform = findPlatform(value.platform);
    if (!platform) {
      context.addIssue({
        code: "custom",
        path: ["platform"],
        message: `Unknown platform: ${value.platform.slice(0, 40)}`,
      });
      return z.NEVER;
    }
    if (platform.closed) {
      context.addIssue({ code: "custom", path: ["platform"], message: platform.closed });
      return z.NEVER;
    }
    if (platform.manualFields.length === 0) {
      context.addIssue({
        code: "custom",
        path: ["platform"],
        message: `${platform.name} needs no connection`,
      });
      return z.NEVER;
    }
    const fields = platform.manualFields;
    let ok = true;
    if (fields.includes("apiKey") && !value.apiKey) {
      context.addIssue({
        code: "custom",
        path: ["apiKey"],
        message:
          platform.id === "shopify"
            ? "Please enter your Admin API access token"
            : platform.capability === "sftpSubmission"
              ? "Please enter your SFTP password"
              : "Please enter your API key",
      });
      ok = false;
    }
    if (fields.includes("username") && !value.username) {
      context.addIssue({
        code: "custom",
        path: ["username"],
        message: "Please enter your SFTP username",
      });
      ok = false;
    }
    let walletAddress: string | null = null;
    if (fields.includes("walletAddress")) {
      if (!value.walletAddress) {
        context.addIssue({
          code: "custom",
          path: ["walletAddress"],
          message: "Please enter your wallet address",
        });
        ok = false;
      } else if (!EVM_ADDRESS.test(value.walletAddress)) {
        context.addIssue({
          code: "custom",
          path: ["walletAddress"],
          message: "Please enter a valid wallet address (0x followed by 40 hexadecimal characters)",
        });
        ok = false;
      } else {
        walletAddress = value.walletAddress;
      }
    }
    let shopDomain: string | null = null;
    if (fields.includes("shopDomain")) {
      shopDomain = normalizeShopDomain(value.shopDomain);
      if (!shopDomain) {
        context.addIssue({ code: "custom", path: ["shopDomain"], message: INVALID_SHOP_DOMAIN });
        ok = false;
      }
    }
    if (!ok) return z.NEVER;
    // Absent fields stay absent (not null), so parsing this output again changes nothing.
    return {
      platform: platform.id,
      apiKey: value.apiKey!,
      ...(walletAddress ? { walletAddress } : {}),
      ...(shopDomain ? { shopDomain } : {}),
      ...(fields.includes("username") ? { username: value.username! } : {}),
    };
  });
export type ManualIntegrationInput = z.output<typeof manualIntegrationSchema>;

/** The shop a creator connects with OAuth. */
export const shopDomainInput = z
  .string(INVALID_SHOP_DOMAIN)
  .trim()
  .max(200)
  .transform((value, context) => {
    const shop = normalizeShopDomain(value);
    if (!shop) {
      context.addIssue({ code: "custom", message: INVALID_SHOP_DOMAIN });
      return z.NEVER;
    }
    return shop;
  });

/** Most bytes of a drawn signature's PNG data URL (a canvas of a few hundred pixels is far less). */
export const MAX_DRAWN_SIGNATURE_CHARS = 400_000;
/** Why a drawn signature is refused for its size: too many bytes here, too many pixels on the server (drawn-signature.server.ts). */
export const DRAWN_SIGNATURE_TOO_LARGE =
  "The drawn signature is too large; please clear it and draw it again";

/** A day written YYYY-MM-DD that exists on the calendar (not 2023-02-30). */
function isCalendarDay(value: string): boolean {
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

function day(missing: string, format: string) {
  return z
    .string(missing)
    .trim()
    .min(1, missing)
    .regex(/^\d{4}-\d{2}-\d{2}$/, format)
    .refine(isCalendarDay, "Please enter a real date");
}

/** A ticked box ("on"), or true in JSON; anything else is not ticked. */
const ticked = z.preprocess((raw) => {
  const value = lastValue(raw);
  return value === true || value === "on" || value === "true";
}, z.boolean());

/** The age a model must have reached on the shoot date and on the date signed (a minor's release needs a guardian's signature). */
export const MIN_MODEL_AGE = 18;
export const MINOR_REFUSED =
  "You must be 18 or older on the shoot date and the date you sign. A minor's release must be " +
  "signed by a parent or guardian: use Adobe's release form (its guardian section) or Adobe Sign, " +
  "then upload the signed release below.";

/**
 * Whether someone born on `birth` had turned `years` by `on` (all YYYY-MM-DD):
 * the birthday in the year they turn it, and someone born on 29 February
 * turns it on 1 March of a year that has none.
 */
export function hasTurned(birth: string, on: string, years: number): boolean {
  const [by, bm, bd] = birth.split("-").map(Number);
  const [y, m, d] = on.split("-").map(Number);
  const age = y - by - (m < bm || (m === bm && d < bd) ? 1 : 0);
  return age >= years;
}

/**
 * A model release the creator signs for themselves (the release page's form
 * and POST /api/token-stylized-images/{id}/model-release), with what Adobe's
 * own release form asks: the model (the person shown: name, date of birth,
 * postal address, email and phone), the shoot (its date, and where, if they
 * wish), the photographer (the model themselves, ticking selfTaken, or
 * someone else by name, who then signs the PDF), the day, the typed signature
 * (the same name), and, with JavaScript, a drawn signature as a PNG data URL.
 * The model's contact details and birth date go onto the PDF only.
 */
export const modelReleaseFields = z.object({
  modelName: z
    .string("Please enter the name of the person shown")
    .trim()
    .min(1, "Please enter the name of the person shown")
    .max(120, "The name can be at most 120 characters"),
  dateOfBirth: day(
    "Please enter your date of birth",
    "Please enter your date of birth as YYYY-MM-DD",
  ).refine((value) => value >= "1900-01-01", "Please enter your real date of birth"),
  address: z
    .string("Please enter your postal address")
    .trim()
    .min(1, "Please enter your postal address")
    .max(300, "The address can be at most 300 characters"),
  email: emailAddressField({
    missing: "Please enter your email address",
    invalid: "Please enter a valid email address",
  }),
  phone: z
    .string("Please enter your phone number")
    .trim()
    .min(1, "Please enter your phone number")
    .max(40, "The phone number can be at most 40 characters")
    .refine(
      (value) => /^\+?[0-9 ()./-]+$/.test(value) && (value.match(/[0-9]/g)?.length ?? 0) >= 5,
      "Please enter a phone number (digits, with + and the country code if abroad)",
    ),
  shootDate: day(
    "Please enter the date the photo was taken",
    "Please enter the date the photo was taken as YYYY-MM-DD",
  ),
  shootLocation: z
    .string()
    .trim()
    .max(120, "The place can be at most 120 characters")
    .optional()
    .transform((value) => value || undefined),
  // Ticked: the model took the photo and signs as photographer too (a self-portrait).
  selfTaken: ticked,
  photographerName: z
    .string()
    .trim()
    .max(120, "The photographer's name can be at most 120 characters")
    .optional()
    .transform((value) => value || undefined),
  signedOn: day("Please enter the date you sign", "Please enter the date you sign as YYYY-MM-DD"),
  signature: z
    .string("Please type your name to sign")
    .trim()
    .min(1, "Please type your name to sign")
    .max(120, "The signature can be at most 120 characters"),
  // A ticked box ("on"), or true in JSON; absent or anything else is refused.
  confirm: z.preprocess(
    (raw) => {
      const value = lastValue(raw);
      return value === true || value === "on" || value === "true";
    },
    z.literal(true, { error: "Please confirm that you are the person shown in this image" }),
  ),
  drawnSignature: z
    .string()
    .max(MAX_DRAWN_SIGNATURE_CHARS, DRAWN_SIGNATURE_TOO_LARGE)
    .optional()
    .transform((value) => value || undefined),
});

type ModelReleaseValues = Pick<
  z.output<typeof modelReleaseFields>,
  "modelName" | "signature" | "dateOfBirth" | "shootDate" | "signedOn" | "selfTaken"
> & { photographerName?: string };

/**
 * The rules between fields: the typed signature is the name given above (any
 * case and spacing); a photographer is named unless the model took the photo;
 * the model was born before the shoot and was an adult on the shoot date and
 * on the date signed.
 */
export function modelReleaseRules(value: ModelReleaseValues, context: z.RefinementCtx): void {
  const plain = (text: string) => text.toLowerCase().replace(/\s+/g, " ").trim();
  if (value.signature && value.modelName && plain(value.signature) !== plain(value.modelName)) {
    context.addIssue({
      code: "custom",
      path: ["signature"],
      message: "To sign, type your name exactly as above",
    });
  }
  if (!value.selfTaken && !value.photographerName) {
    context.addIssue({
      code: "custom",
      path: ["photographerName"],
      message: "Please enter the photographer's name, or tick that you took this photo yourself",
    });
  }
  if (value.dateOfBirth && value.shootDate) {
    if (value.dateOfBirth >= value.shootDate) {
      context.addIssue({
        code: "custom",
        path: ["dateOfBirth"],
        message: "The date of birth must be before the date the photo was taken",
      });
    } else if (
      !hasTurned(value.dateOfBirth, value.shootDate, MIN_MODEL_AGE) ||
      (value.signedOn && !hasTurned(value.dateOfBirth, value.signedOn, MIN_MODEL_AGE))
    ) {
      context.addIssue({ code: "custom", path: ["dateOfBirth"], message: MINOR_REFUSED });
    }
  }
}

export const modelReleaseSchema = modelReleaseFields.superRefine(modelReleaseRules);
export type ModelReleaseInput = z.output<typeof modelReleaseSchema>;
