import { z } from "zod";
import { holdsOnlyXmlText, nonXmlTextMessage } from "~/lib/xml-text";
import { currentPassword, emailAddress, mailedLinkToken } from "~/features/accounts/account-fields";

/**
 * The profile's rules, for the Profile tab's forms (in the browser, with
 * conform) and the account procedures alike: names, the public handle and
 * bio, and an email change.
 */

export const HANDLE_MIN = 3;
export const HANDLE_MAX = 30;
export const BIO_MAX = 280;
export const NAME_MAX = 100;

/**
 * Handles that would read as the site's own pages or staff (a storefront at
 * /<handle> must never shadow one), refused whoever asks.
 */
export const RESERVED_HANDLES: ReadonlySet<string> = new Set([
  "about",
  "account",
  "accounts",
  "admin",
  "administrator",
  "api",
  "app",
  "assets",
  "auth",
  "billing",
  "blog",
  "build",
  "checkout",
  "confirm-email",
  "confirm-registration",
  "contact",
  "creator",
  "creators",
  "dashboard",
  "docs",
  "download",
  "downloads",
  "export",
  "forgot-password",
  "healthz",
  "help",
  "home",
  "images",
  "integrations",
  "legal",
  "library",
  "license",
  "licenses",
  "listings",
  "login",
  "logout",
  "mail",
  "marketplace",
  "me",
  "media",
  "moderator",
  "new",
  "null",
  "official",
  "payouts",
  "privacy",
  "readyz",
  "register",
  "reset-password",
  "root",
  "security",
  "selfie-studio",
  "settings",
  "shop",
  "signin",
  "signup",
  "staff",
  "static",
  "status",
  "store",
  "studio",
  "super-admin",
  "support",
  "system",
  "terms",
  "token-test",
  "training",
  "undefined",
  "www",
]);

export const HANDLE_FORMAT_MESSAGE = `A handle is ${HANDLE_MIN}–${HANDLE_MAX} characters of a–z, 0–9 and "-"`;
export const HANDLE_RESERVED_MESSAGE = "This handle is reserved. Choose another one.";
export const HANDLE_TAKEN_MESSAGE = "This handle is taken. Choose another one.";

/** Control characters (line breaks and tabs aside), which no name or bio holds. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const noControl = (value: string) => !CONTROL.test(value);
const CONTROL_MESSAGE = (what: string) => `${what} must not hold control characters`;

/** A first or last name (`label` says which in its messages): required, one line of text. */
const personName = (label: string) =>
  z
    .string({ error: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(NAME_MAX, `${label} must be at most ${NAME_MAX} characters`)
    .refine(noControl, CONTROL_MESSAGE(label))
    .refine(holdsOnlyXmlText, nonXmlTextMessage(label));
const firstName = personName("First name");
const lastName = personName("Last name");

/** A handle as typed: spaces around it dropped and lower-cased; an empty one clears it (null). */
const handle = z
  .string({ error: HANDLE_FORMAT_MESSAGE })
  .trim()
  .toLowerCase()
  .max(200, HANDLE_FORMAT_MESSAGE)
  .nullable()
  .transform((value) => (value ? value : null))
  .refine(
    (value) => value === null || new RegExp(`^[a-z0-9-]{${HANDLE_MIN},${HANDLE_MAX}}$`).test(value),
    HANDLE_FORMAT_MESSAGE,
  )
  .refine((value) => value === null || !RESERVED_HANDLES.has(value), HANDLE_RESERVED_MESSAGE);

/** A short bio; an empty one clears it (null). Line breaks are kept. */
const bio = z
  .string({ error: `A bio is text of at most ${BIO_MAX} characters` })
  .trim()
  .max(BIO_MAX, `A bio is at most ${BIO_MAX} characters`)
  .refine(noControl, CONTROL_MESSAGE("A bio"))
  .refine(holdsOnlyXmlText, nonXmlTextMessage("A bio"))
  .nullable()
  .transform((value) => (value ? value : null));

/** PATCH /api/account: any of the fields; those left out stay as they are. */
export const accountPatchSchema = z
  .object({
    firstName: firstName.optional(),
    lastName: lastName.optional(),
    handle: handle.optional(),
    bio: bio.optional(),
  })
  .refine(
    (patch) => Object.values(patch).some((value) => value !== undefined),
    "Send at least one of firstName, lastName, handle and bio",
  );

/** The Profile tab's form: every field is sent (an empty handle or bio clears it). */
export const profileFormSchema = z.object({
  firstName,
  lastName,
  // A form sends an emptied field as "", which the form parser reads as no value: cleared.
  handle: handle.optional().transform((value) => value ?? null),
  bio: bio.optional().transform((value) => value ?? null),
});

/** Asking to change the email: the new address and the current password. */
export const emailChangeSchema = z.object({ email: emailAddress, password: currentPassword });

/** The token of a mailed email-change link. */
export const emailChangeTokenSchema = z.object({
  token: mailedLinkToken({
    missing: "The link is missing its token. Ask for a new one in Settings.",
    invalid: "This email change link is not valid. Ask for a new one in Settings.",
  }),
});

export type AccountPatch = z.output<typeof accountPatchSchema>;
