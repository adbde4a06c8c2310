import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { accountOf } from "~/features/accounts/public.server";
import { cancelStylesOfCreator } from "~/features/studio/public.server";
import {
  CANCELLED_BY_CONSENT_WITHDRAWAL,
  hasCurrentFaceConsent,
} from "~/features/privacy/face-consent";
import {
  consentLogOf,
  currentFaceConsent,
  currentFaceConsentVersion,
  recordFaceConsent,
  withdrawFaceConsent,
} from "~/features/privacy/face-consent.server";
import { privacyFacts } from "~/features/privacy/privacy-facts.server";
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

/**
 * Records the consent to the text shown now (for the engine this server
 * styles with), with its time and version, and logs it; answers the account.
 */
export const giveFaceConsent = defineProcedure({
  name: "privacy.giveFaceConsent",
  access: "user",
  input: giveFaceConsentSchema,
  async run({ user, ctx }) {
    const text = currentFaceConsent(ctx.config);
    const updated = await recordFaceConsent(ctx.db, user.id, ctx.now, text);
    return accountOf(ctx.db, updated, ctx.now, text.version);
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
    return accountOf(ctx.db, updated, ctx.now, currentFaceConsentVersion(ctx.config));
  },
});

/**
 * The Privacy tab: the consent's state, the text it is about, and the verified
 * face's state. The text is the one the person would be shown now; it is shown
 * as agreed to only when their consent is to exactly that text (same version),
 * else they are asked again.
 */
export const faceConsentScreen = defineProcedure({
  name: "privacy.faceConsentScreen",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    const text = currentFaceConsent(ctx.config);
    const account = await accountOf(ctx.db, user, ctx.now, text.version);
    const given = hasCurrentFaceConsent(user, text.version);
    return {
      given,
      /** Consent was given to another text (an earlier wording, another engine): it is asked again. */
      outdated: user.face_consent_version !== null && !given,
      record: account.consent.faceProcessing,
      paragraphs: text.paragraphs,
      face: await verifiedFaceOf(ctx.db, user.id),
    };
  },
});

/**
 * The data export's part of privacy: the person's consent log (every consent
 * given, with the text agreed to, and every withdrawal), and the version of
 * the text shown now (the export's account says whether the consent is to it).
 */
export const creatorPrivacyExport = defineProcedure({
  name: "privacy.creatorExport",
  access: "user",
  input: z.object({}),
  async run({ user, ctx }) {
    return {
      currentFaceConsentVersion: currentFaceConsentVersion(ctx.config),
      consentLog: await consentLogOf(ctx.db, user.id),
      // The privacy notice as this server states it now: the export's README.txt (GDPR Art. 15(1)).
      notice: privacyFacts(ctx.config).sections,
    };
  },
});
