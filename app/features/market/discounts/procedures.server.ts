import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { discountInputSchema } from "~/features/market/discounts/discount-schema";
import {
  createDiscount,
  deleteDiscount,
  discountsOfCreator,
} from "~/features/market/discounts/discounts.server";

/** Discount codes: a creator makes, lists and deletes their own (the Discounts screen and /api/token-discounts). */

/** POST /api/token-discounts and the Discounts screen's form. */
export const createMyDiscount = defineProcedure({
  name: "createMyDiscount",
  access: "user",
  input: discountInputSchema,
  run: ({ input, user, ctx }) => createDiscount(ctx.db, { userId: user.id, input, now: ctx.now }),
});

/** GET /api/token-discounts and the Discounts screen: the caller's codes, newest first. */
export const myDiscounts = defineProcedure({
  name: "myDiscounts",
  access: "user",
  input: z.object({}),
  run: ({ user, ctx }) => discountsOfCreator(ctx.db, user.id),
});

/** DELETE /api/token-discounts/{id} and the screen's Delete button. */
export const deleteMyDiscount = defineProcedure({
  name: "deleteMyDiscount",
  access: "user",
  input: z.object({
    id: z.string("Choose a discount code").trim().min(1, "Choose a discount code").max(100),
  }),
  async run({ input, user, ctx }) {
    await deleteDiscount(ctx.db, { userId: user.id, id: input.id, now: ctx.now });
    return { id: input.id };
  },
});
