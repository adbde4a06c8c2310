import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { notFound } from "~/infra/errors.server";
import { bundleInputSchema } from "~/features/market/bundles/bundle-schema";
import {
  availableBundlesOfCreator,
  bundlePage,
  bundleUrl,
  bundlesOfCreator,
  createBundle,
  withdrawBundle,
} from "~/features/market/bundles/bundles.server";

/** Bundles: a creator makes and withdraws them; anyone sees a bundle's page and a creator's bundles for sale. */

const bundleIdSchema = z.object({
  id: z.string("Choose a bundle").trim().min(1, "Choose a bundle").max(100),
});

/** POST /api/token-bundles and the form on My listings: a bundle of the caller's own live listings. */
export const createMyBundle = defineProcedure({
  name: "createMyBundle",
  access: "user",
  input: bundleInputSchema,
  async run({ input, user, ctx }) {
    const bundle = await createBundle(ctx.db, {
      userId: user.id,
      title: input.title,
      listingIds: input.listingIds,
      priceCents: Math.round(input.price! * 100),
      now: ctx.now,
    });
    return { id: bundle.id, url: bundleUrl(ctx.origin, bundle.id) };
  },
});

/** DELETE /api/token-bundles/{id} and My listings' Withdraw: the bundle is no longer for sale (its listings stay). */
export const withdrawMyBundle = defineProcedure({
  name: "withdrawMyBundle",
  access: "user",
  input: bundleIdSchema,
  async run({ input, user, ctx }) {
    const bundle = await withdrawBundle(ctx.db, {
      userId: user.id,
      bundleId: input.id,
      now: ctx.now,
    });
    return { id: bundle.id, status: bundle.status };
  },
});

/** The caller's bundles, for sale or not, newest first. */
export const myBundles = defineProcedure({
  name: "myBundles",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => bundlesOfCreator(ctx.db, user.id, ctx.origin),
});

/** A bundle's public page: 404 for an unknown one; a withdrawn one answers `available: false`. */
export const viewBundle = defineProcedure({
  name: "viewBundle",
  access: "public",
  input: bundleIdSchema,
  async run({ input, ctx }) {
    const view = await bundlePage(ctx.db, input.id, ctx.origin);
    if (!view) throw notFound("Bundle not found");
    return view;
  },
});

/** A creator's bundles for sale now (the storefront's cards). */
export const creatorBundles = defineProcedure({
  name: "creatorBundles",
  access: "public",
  input: z.object({ creatorId: z.string().min(1).max(100) }),
  run: ({ input, ctx }) => availableBundlesOfCreator(ctx.db, input.creatorId, ctx.origin),
});
