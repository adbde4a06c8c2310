import { Form, Link } from "@remix-run/react";
import { FaceConsentForm } from "~/features/privacy/components/face-consent-form";

export interface FaceConsentScreen {
  given: boolean;
  outdated: boolean;
  record: { given: boolean; at: string | null; version: string | null };
  paragraphs: string[];
  /** The verified face (a face descriptor is kept): whether, and since when. */
  face?: { verified: boolean; at: string | null };
}

/** Settings, Privacy: whether the creator consents to face processing, since when, and Give or Withdraw. */
export function PrivacySettings({ screen }: { screen: FaceConsentScreen }) {
  return (
    <section
      aria-labelledby="privacy-settings-heading"
      className="space-y-4"
      data-testid="privacy-settings"
    >
      <h2 id="privacy-settings-heading" className="text-lg font-semibold text-slate-900">
        Face processing
      </h2>
      {screen.given ? (
        <>
          <p className="text-sm text-slate-700" data-testid="consent-state">
            You agreed to face processing on {formatMoment(screen.record.at)} (text version{" "}
            {screen.record.version}).
          </p>
          <ul className="list-disc space-y-1 pl-5 text-sm text-slate-600">
            {screen.paragraphs.map((paragraph) => (
              <li key={paragraph}>{paragraph}</li>
            ))}
          </ul>
          <Form method="post" action="/settings/privacy">
            <input type="hidden" name="intent" value="withdraw-consent" />
            <button type="submit" className="btn-secondary">
              Withdraw consent
            </button>
          </Form>
          <p className="text-xs text-slate-500">
            Withdrawing stops new styling at once and cancels styles that are waiting. Styles
            already made stay.
          </p>
          <VerifiedFace face={screen.face} />
        </>
      ) : (
        <>
          <p className="text-sm text-slate-700" data-testid="consent-state">
            {screen.outdated
              ? "The text about face processing has changed since you agreed: styling waits until you agree to it again."
              : "You have not agreed to face processing: styles cannot be generated until you do."}
          </p>
          <FaceConsentForm paragraphs={screen.paragraphs} action="/settings/privacy" />
        </>
      )}
      <p className="text-sm text-slate-600">
        <Link to="/privacy" className="font-medium text-brand-700 underline">
          What is stored, where and for how long
        </Link>
      </p>
    </section>
  );
}

/** The verified face: a selfie of the creator alone, sent as a plain form (no JavaScript needed). */
function VerifiedFace({ face }: { face: FaceConsentScreen["face"] }) {
  return (
    <div className="space-y-3 border-t border-slate-200 pt-4" data-testid="verified-face">
      <h3 className="text-base font-semibold text-slate-900">Verified face</h3>
      {face?.verified ? (
        <>
          <p className="text-sm text-slate-700" data-testid="verified-face-state">
            Your face was verified on {formatMoment(face.at)}. Each upload is compared with it.
          </p>
          <Form method="post" action="/settings/privacy">
            <input type="hidden" name="intent" value="remove-face" />
            <button type="submit" className="btn-secondary">
              Delete my verified face
            </button>
          </Form>
        </>
      ) : (
        <p className="text-sm text-slate-700" data-testid="verified-face-state">
          Take or upload a selfie of yourself alone: each upload is then compared with your face.
          Only a face descriptor (biometric data) is kept, never the photo.
        </p>
      )}
      <Form
        method="post"
        action="/settings/privacy"
        encType="multipart/form-data"
        className="flex flex-wrap items-center gap-3"
      >
        <label className="w-full max-w-full text-sm text-slate-700 sm:w-auto">
          <span className="sr-only">Selfie</span>
          <input
            type="file"
            name="image"
            accept="image/*"
            capture="user"
            required
            className="w-full max-w-full"
          />
        </label>
        <button type="submit" className="btn-primary">
          {face?.verified ? "Verify again" : "Verify my face"}
        </button>
      </Form>
      <p className="text-xs text-slate-500">
        This compares faces; it does not prove that you are present in person.
      </p>
    </div>
  );
}

function formatMoment(iso: string | null): string {
  if (!iso) return "an unknown date";
  return (
    new Date(iso).toLocaleString("en-GB", {
      dateStyle: "long",
      timeStyle: "short",
      timeZone: "UTC",
    }) + " UTC"
  );
}
