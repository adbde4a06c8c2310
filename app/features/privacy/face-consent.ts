/**
 * The consent to face processing: the words a creator agrees to before the
 * first style. Each text has its version, made from its engine and its very
 * words (faceConsentVersion in face-consent.server.ts); consent counts only
 * when the version a creator agreed to is the version of the text they would
 * be shown now, so another engine or a changed sentence asks everyone again.
 */

/** The styling engine the text describes: this server's own, or fal.ai with how long it keeps the uploaded photo. */
export type ConsentEngine = { kind: "local" } | { kind: "fal"; photoExpirySeconds: number };

export const FAL_RETENTION_DOCS = "https://docs.fal.ai/documentation/model-apis/media-expiration";

/** What styling does with a selfie, in plain words, for the engine in use. */
export function faceConsentText(engine: ConsentEngine): string[] {
  const local = [
    "To compose a style, the studio finds your face and you in the photo: it measures the face (a mesh of 468 points and the position of your irises) and outlines where you are in the picture.",
    "These measurements are computed on this server for each style and are not kept: only the finished style is stored.",
  ];
  const verifiedFace =
    "If you verify your face (Settings, Privacy), this server keeps a face descriptor made from your selfie: 1024 numbers that describe your face, which are biometric data. The selfie itself is not kept. Each upload is compared with it to show whether the picture is of you. The descriptor is deleted when you withdraw this consent, when you delete it, or when your account is erased.";
  if (engine.kind === "local") {
    return [...local, "Your photo does not leave this server to be styled.", verifiedFace];
  }
  return [
    "To make a style, your photo is sent to fal.ai, an AI image service, which returns the styled picture.",
    `The photo and the result are stored at fal.ai with an expiry of ${engine.photoExpirySeconds} seconds, which this server sets; fal.ai then deletes them. Each request carries the header X-Fal-Store-IO: 0, which tells fal.ai to keep no copy of its inputs and outputs (the photo and the result) in its request history.`,
    "The measurements of your face are made by fal.ai's models while the request runs; this server keeps only the finished style.",
    verifiedFace,
  ];
}

/** What the API and the dashboard answer to a style asked for without consent. */
export const FACE_CONSENT_REQUIRED =
  "Styling needs your consent to face processing: read what it does and agree on the Style step or in Settings, Privacy.";

/** What a creator reads on a style that was waiting when they withdrew their consent. */
export const CANCELLED_BY_CONSENT_WITHDRAWAL =
  "Cancelled: you withdrew your consent to face processing.";

/** What a creator reads on a style that was waiting when the text they agreed to stopped being the one shown (another engine, a new wording). */
export const CANCELLED_BY_CONSENT_TEXT_CHANGE =
  "Cancelled: the text about face processing has changed since you agreed. Read it again and agree to go on styling.";

/** Whether a user's recorded consent is to the text shown now, whose version is `currentVersion`. */
export function hasCurrentFaceConsent(
  user: {
    face_consent_version: string | null;
    face_consent_at: string | null;
  },
  currentVersion: string,
): boolean {
  return user.face_consent_at !== null && user.face_consent_version === currentVersion;
}
