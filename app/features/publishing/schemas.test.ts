import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod/v4";
import {
  hasTurned,
  launchSchema,
  modelReleaseSchema,
  postSchema,
  tagsList,
} from "~/features/publishing/schemas";
import { RELEASE_DETAILS } from "#tests/setup/model-releases";
import { listingInputSchema } from "~/features/market/catalog/listing-schema";

function launchForm(fields: Record<string, string>) {
  const formData = new FormData();
  formData.set("imageId", "img1");
  formData.set("title", "Astronaut");
  formData.set("price", "35");
  formData.append("platforms", "marketplace");
  for (const [name, value] of Object.entries(fields)) formData.set(name, value);
  return formData;
}

describe("tags", () => {
  it.each([
    ["astronaut, portrait,", ["astronaut", "portrait"]],
    ["a,, b", ["a", "b"]],
    [" , ,", []],
    ["", []],
  ])("splits %j by commas, trims and drops empties", (text, tags) => {
    expect(tagsList.parse(text)).toEqual(tags);
    expect(
      listingInputSchema.parse({ stylizedImageId: "s1", title: "T", tags: text }).tags,
    ).toEqual(tags);
  });

  it("takes arrays with empty items too", () => {
    expect(tagsList.parse(["a, b", "", " c "])).toEqual(["a", "b", "c"]);
    expect(
      listingInputSchema.parse({ stylizedImageId: "s1", title: "T", tags: ["a", "", " b "] }).tags,
    ).toEqual(["a", "b"]);
  });

  it("accepts a trailing or doubled comma from a form (the form parser reads empty pieces as missing)", () => {
    for (const tags of ["astronaut, portrait,", "a,, b"]) {
      const submission = parseWithZod(launchForm({ tags }), { schema: launchSchema });
      expect(submission.status).toBe("success");
    }
    const submission = parseWithZod(launchForm({ tags: "astronaut, portrait," }), {
      schema: launchSchema,
    });
    expect(submission.status === "success" && submission.value.tags).toEqual([
      "astronaut",
      "portrait",
    ]);
    const listing = new FormData();
    listing.set("stylizedImageId", "s1");
    listing.set("title", "T");
    listing.set("tags", "a,, b,");
    const parsed = parseWithZod(listing, { schema: listingInputSchema });
    expect(parsed.status === "success" && parsed.value.tags).toEqual(["a", "b"]);
  });

  it("the sell form still needs a price above 0", () => {
    const submission = parseWithZod(launchForm({ price: "0" }), { schema: postSchema });
    expect(submission.status).toBe("error");
  });
});

describe("a model release's model is an adult on the shoot date and the date signed", () => {
  it("counts 18 years to the birthday, and one born on 29 February turns 18 on 1 March of a year without it", () => {
    expect(hasTurned("2002-06-01", "2020-06-01", 18)).toBe(true);
    expect(hasTurned("2002-06-02", "2020-06-01", 18)).toBe(false);
    expect(hasTurned("2000-02-29", "2018-02-28", 18)).toBe(false);
    expect(hasTurned("2000-02-29", "2018-03-01", 18)).toBe(true);
    expect(hasTurned("2000-02-29", "2018-03-01", 19)).toBe(false);
  });

  it("takes a model who turned 18 on the shoot date; refuses one who was 17 then or when signing", () => {
    const release = {
      ...RELEASE_DETAILS,
      modelName: "Ada Lovelace",
      signature: "Ada Lovelace",
      confirm: true,
      shootDate: "2020-06-01",
      signedOn: "2020-06-01",
    };
    expect(modelReleaseSchema.safeParse({ ...release, dateOfBirth: "2002-06-01" }).success).toBe(
      true,
    );
    const minor = modelReleaseSchema.safeParse({ ...release, dateOfBirth: "2002-06-02" });
    expect(minor.error?.issues).toEqual([
      expect.objectContaining({
        path: ["dateOfBirth"],
        message: expect.stringMatching(/^You must be 18 or older .* parent or guardian/),
      }),
    ]);
    // Signed before the 18th birthday, though the shoot was after it: refused too.
    expect(
      modelReleaseSchema.safeParse({
        ...release,
        dateOfBirth: "2002-06-01",
        shootDate: "2020-07-01",
        signedOn: "2020-05-31",
      }).success,
    ).toBe(false);
  });

  it("names a photographer: the model, ticking that they took it, or someone else", () => {
    const release = {
      ...RELEASE_DETAILS,
      modelName: "Ada Lovelace",
      signature: "Ada Lovelace",
      confirm: true,
      signedOn: "2024-05-02",
    };
    expect(modelReleaseSchema.parse(release)).toMatchObject({ selfTaken: true });
    expect(
      modelReleaseSchema.parse({
        ...release,
        selfTaken: false,
        photographerName: " Grace Hopper ",
      }),
    ).toMatchObject({ selfTaken: false, photographerName: "Grace Hopper" });
    expect(
      modelReleaseSchema.safeParse({ ...release, selfTaken: undefined }).error?.issues[0],
    ).toMatchObject({ path: ["photographerName"] });
  });
});
