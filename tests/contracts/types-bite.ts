/**
 * Proof that the vendors' own types still check our calls: each line marked
 * `@ts-expect-error` is a deliberately wrong call that the typecheck must
 * refuse (if a type loosened, e.g. fell back to `any`, the marker itself
 * becomes the error). The calls are never run: this file is only typechecked
 * (`npm run typecheck`, and tests/contracts/types-bite.test.ts on its own).
 */
import type { FalClient } from "@fal-ai/client";
import type Stripe from "stripe";
import type { EsrganInput, KontextInput, KontextOptions } from "~/engines/fal/fal-inputs.server";
import {
  esrganInput,
  ESRGAN_MODEL,
  kontextInput,
  KONTEXT_MODEL,
} from "~/engines/fal/fal-inputs.server";

export function falTypesBite(client: FalClient) {
  // What the app sends type-checks...
  const options: KontextOptions = { output_format: "jpeg", safety_tolerance: "2" };
  void client.queue.submit(KONTEXT_MODEL, {
    input: kontextInput(options, "Change the style", "https://v3.fal.media/x.jpg"),
  });
  void client.subscribe(ESRGAN_MODEL, { input: esrganInput("https://v3.fal.media/x.jpg", 2) });

  // ...and wrong inputs do not.
  // @ts-expect-error Kontext's safety_tolerance is one of "1".."6", not a number
  const wrongTolerance: KontextInput = { prompt: "p", image_url: "u", safety_tolerance: 2 };
  // @ts-expect-error Kontext answers jpeg or png, not webp
  const wrongFormat: KontextOptions = { output_format: "webp" };
  // @ts-expect-error ESRGAN has no such model
  const wrongModel: EsrganInput = { image_url: "u", model: "RealESRGAN_x8plus" };
  // @ts-expect-error Kontext needs a prompt
  void client.queue.submit(KONTEXT_MODEL, { input: { image_url: "u" } });
  // @ts-expect-error ESRGAN's scale is a number
  void client.subscribe(ESRGAN_MODEL, { input: { image_url: "u", scale: "4" } });
  return [wrongTolerance, wrongFormat, wrongModel];
}

export function stripeTypesBite(stripe: Stripe) {
  // What the app sends type-checks...
  void stripe.transfers.create({
    amount: 1200,
    currency: "usd",
    destination: "acct_1",
    transfer_group: "order_1",
  });

  // ...and wrong calls do not.
  // @ts-expect-error a transfer's amount is an integer of the smallest unit, not a string
  void stripe.transfers.create({ amount: "12.00", currency: "usd", destination: "acct_1" });
  // @ts-expect-error a transfer needs a destination
  void stripe.transfers.create({ amount: 1200, currency: "usd" });
  // @ts-expect-error a refund's amount is an integer, not a string
  void stripe.refunds.create({ payment_intent: "pi_1", amount: "5.00" });
  // @ts-expect-error a reversal names its transfer by id (a string)
  void stripe.transfers.createReversal(1234, { amount: 100 });
}
