import { z } from "zod";
import { STYLE_IDS } from "~/lib/styles";
import type { StyleId } from "~/lib/styles";
import { defineProcedure } from "~/infra/procedure.server";
import {
  STYLE_SAMPLE_CREDIT,
  styleSampleKey,
  styleSampleUrls,
} from "~/engines/styling/style-samples.server";
import { sampleWidth } from "~/features/landing/sample-variants.server";

export interface LandingSamples {
  urls: Record<StyleId, string>;
  credit: string;
  /** The samples' width in pixels (all four are made from one portrait), for their srcset. */
  width: number | null;
}

/**
 * The landing hero's four style samples (made by the local engine at boot),
 * or null while any of them is missing, so the page never shows a broken image.
 */
export const landingSamples = defineProcedure({
  name: "landingSamples",
  access: "public",
  input: z.object({}),
  async run({ ctx }): Promise<LandingSamples | null> {
    const store = ctx.files;
    const present = await Promise.all(
      STYLE_IDS.map((style) => store.exists(styleSampleKey(style))),
    );
    if (!present.every(Boolean)) return null;
    return {
      urls: styleSampleUrls(),
      credit: STYLE_SAMPLE_CREDIT,
      width: await sampleWidth(store, styleSampleKey(STYLE_IDS[0])),
    };
  },
});

/** The contact page's address: SUPPORT_EMAIL, or the admin's address without it. */
export const supportContact = defineProcedure({
  name: "landing.supportContact",
  access: "public",
  input: z.object({}),
  run: ({ ctx }) => ({ email: ctx.config.SUPPORT_EMAIL, privacyEmail: ctx.config.PRIVACY_EMAIL }),
});
