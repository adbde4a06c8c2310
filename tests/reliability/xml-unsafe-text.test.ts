import sharp from "sharp";
import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { listingInputSchema } from "~/features/market/catalog/listing-schema";
import { customerInfoSchema } from "~/features/market/checkout/checkout-schema";
import { launchSchema, postSchema } from "~/features/publishing/schemas";
import { invitedRegisterSchema, registerSchema } from "~/features/accounts/schemas";
import { accountPatchSchema, profileFormSchema } from "~/features/accounts/profile/profile-schemas";
import { adminCreateUserSchema } from "~/features/admin/schemas";
import { socialCardSvg } from "~/features/market/catalog/social-card.server";

/**
 * A title, bio or name is drawn into SVG (the listing's social card) and
 * written into XML (sitemaps, feeds): a code point XML cannot hold breaks the
 * whole document. Every such field refuses them when typed, and the card
 * leaves them out of a title stored before.
 */

/** Code points XML 1.0 cannot hold: U+FFFE, U+FFFF, a lone surrogate (high, low), C0 controls but tab and line breaks. */
const NOT_XML = ["\uFFFE", "\uFFFF", "\uD800", "\uDC00", "\u0000", "\u0001", "\u000B", "\u001F"];
/** Characters XML holds, which the same fields keep taking. */
const FINE = ["\u00E9", "\u{1F600}", "\u4E2D", "\uFDD0x"];

function fieldErrors(schema: z.ZodType, input: Record<string, unknown>): string[] {
  const result = schema.safeParse(input);
  return result.success ? [] : result.error.issues.map((issue) => issue.path.join("."));
}

/** A new account's fields, valid. */
const NEW_PERSON = {
  firstName: "Ann",
  lastName: "Lee",
  email: "ann@example.com",
  password: "a-long-password-1",
};

const cases: {
  name: string;
  schema: z.ZodType;
  base: Record<string, unknown>;
  fields: string[];
}[] = [
  {
    name: "a listing",
    schema: listingInputSchema,
    base: { stylizedImageId: "img-1", title: "Portrait" },
    fields: ["title"],
  },
  {
    name: "a launch",
    schema: launchSchema,
    base: { imageId: "img-1", title: "Portrait", price: 5, platforms: ["marketplace"] },
    fields: ["title"],
  },
  {
    name: "a post",
    schema: postSchema,
    base: { imageId: "img-1", title: "Portrait", price: 5, platforms: ["marketplace"] },
    fields: ["title"],
  },
  {
    name: "a registration",
    schema: registerSchema,
    base: NEW_PERSON,
    fields: ["firstName", "lastName"],
  },
  {
    name: "an invited registration",
    schema: invitedRegisterSchema,
    base: { invite: "token", firstName: "Ann", lastName: "Lee", password: "a-long-password-1" },
    fields: ["firstName", "lastName"],
  },
  {
    name: "the admin's new user",
    schema: adminCreateUserSchema,
    base: NEW_PERSON,
    fields: ["firstName", "lastName"],
  },
  {
    name: "a profile change (API)",
    schema: accountPatchSchema,
    base: { firstName: "Ann", lastName: "Lee", bio: "Hello" },
    fields: ["firstName", "lastName", "bio"],
  },
  {
    name: "the profile form",
    schema: profileFormSchema,
    base: { firstName: "Ann", lastName: "Lee", bio: "Hello" },
    fields: ["firstName", "lastName", "bio"],
  },
  {
    name: "a checkout",
    schema: customerInfoSchema,
    base: { name: "Bea Buyer", email: "bea@example.com", company: "Bea Ltd" },
    fields: ["name", "company"],
  },
];

describe("titles, bios and names", () => {
  it.each(cases)("$name refuses a code point XML cannot hold, and takes any other", (c) => {
    expect(fieldErrors(c.schema, c.base), "the base input is valid").toEqual([]);
    const missed: string[] = [];
    const refusedFine: string[] = [];
    for (const field of c.fields) {
      for (const bad of NOT_XML) {
        const errors = fieldErrors(c.schema, { ...c.base, [field]: `Ab${bad}cd` });
        if (!errors.includes(field)) missed.push(`${field} U+${bad.charCodeAt(0).toString(16)}`);
      }
      for (const fine of FINE) {
        if (fieldErrors(c.schema, { ...c.base, [field]: `Ab${fine}cd` }).length > 0)
          refusedFine.push(`${field} ${fine}`);
      }
    }
    expect(missed).toEqual([]);
    expect(refusedFine).toEqual([]);
  });
});

describe("the social card of a title stored before", () => {
  it("is drawn, the code points XML cannot hold left out", async () => {
    const svg = socialCardSvg({
      title: "Sun\uFFFEset \uFFFFby\uD800 the sea\uDC00",
      priceCents: 1500,
    });
    expect(svg).toContain("Sunset by the sea");
    const { width } = await sharp(Buffer.from(svg)).metadata();
    expect(width).toBeGreaterThan(0);
  });
});
