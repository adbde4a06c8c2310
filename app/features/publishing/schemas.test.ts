import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod/v4";
import { launchSchema, postSchema, tagsList } from "~/features/publishing/schemas";
import { listingInputSchema } from "~/features/market/listing-schema";

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
