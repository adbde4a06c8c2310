import { Form, Link } from "@remix-run/react";
import { FaceConsentForm } from "~/features/privacy/components/face-consent-form";

export interface FaceConsentScreen {
  given: boolean;
  outdated: boolean;
  record: { given: boolean; at: string | null; version: string | null };
  paragraphs: string[];
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
