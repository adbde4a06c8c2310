// What other features (and the boot) use of privacy: plain service calls, not operations.
export {
  currentFaceConsent,
  currentFaceConsentVersion,
  eraseConsentLogOf,
  recordFaceConsent,
  type FaceConsentText,
} from "~/features/privacy/face-consent.server";
