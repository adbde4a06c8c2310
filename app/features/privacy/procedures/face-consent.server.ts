import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { accountOf } from "~/features/accounts/public.server";
import { cancelStylesOfCreator } from "~/features/studio/public.server";
import { styleEngineInUse } from "~/engines/styling/select-style-engine.server";
import {
  CANCELLED_BY_CONSENT_WITHDRAWAL,
  faceConsentText,
  hasCurrentFaceConsent,
} from "~/features/privacy/face-consent";
import { recordFaceConsent, withdrawFaceConsent } from "~/features/privacy/face-consent.server";
import {
  forgetVerifiedFace,
  verifiedFaceOf,
} from "~/features/privacy/procedures/verified-face.server";

/**
 * The consent to face processing (given, withdrawn, shown), for the screens
 * (the dashboard's Style step, Settings' Privacy tab) and the API
 * (/api/account/consent) alike.
 */

export const giveFaceConsentSchema = z.object({
  faceProcessing: z.literal(true, {
    error: "Send faceProcessing: true to agree to face processing",
  }),
});

/** Records the consent to the current text, with its time and version; answers the account. */
export const giveFaceConsent = defineProcedure({
  name: "privacy.giveFaceConsent",
  access: "user",
  input: giveFaceConsentSchema,
  async run({ user, ctx }) {
    const updated = await recordFaceConsent(ctx.db, user.id, ctx.now);
    return accountOf(ctx.db, updated, ctx.now);
  },
});

/** Withdraws the consent: new styling stops at once, the creator's waiting styles are cancelled and their verified face is deleted; answers the account. */
export const withdrawFaceConsentProcedure = defineProcedure({
  name: "privacy.withdrawFaceConsent",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    const updated = await withdrawFaceConsent(ctx.db, user.id, ctx.now, async (trx) => {
      await cancelStylesOfCreator(trx, {
        userId: user.id,
        reason: CANCELLED_BY_CONSENT_WITHDRAWAL,
        now: ctx.now,
      });
      // The verified face (a descriptor, biometric data) goes with the consent.
      await forgetVerifiedFace(trx, user.id);
    });
    return accountOf(ctx.db, updated, ctx.now);
  },
});

/** The Privacy tab: the consent's state, the text it is about, and the verified face's state. */
export const faceConsentScreen = defineProcedure({
  name: "privacy.faceConsentScreen",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    const account = await accountOf(ctx.db, user, ctx.now);
    return {
      given: hasCurrentFaceConsent(user),
      /** Consent was given to an earlier text: it is asked again. */
      outdated: user.face_consent_version !== null && !hasCurrentFaceConsent(user),
      record: account.consent.faceProcessing,
      paragraphs: faceConsentText(styleEngineInUse(ctx.config)),
      face: await verifiedFaceOf(ctx.db, user.id),
    };
  },
});
