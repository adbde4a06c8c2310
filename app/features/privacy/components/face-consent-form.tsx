import { Form, Link } from "@remix-run/react";

/**
 * The consent to face processing, before the first style: what styling does
 * with a selfie, in the words of the current version, and "I agree". A plain
 * form post (works without JavaScript); the page it posts to records the
 * consent and comes back.
 */
export function FaceConsentForm({
  paragraphs,
  action,
  back,
  outdated = false,
}: {
  paragraphs: string[];
  /** The person agreed to an earlier text (another engine, another wording): say so above the new one. */
  outdated?: boolean;
  /** The page whose action records the consent. */
  action: string;
  /** Where to come back to afterwards. */
  back?: string;
}) {
  return (
    <section
      aria-labelledby="face-consent-heading"
      className="rounded-xl border border-brand-200 bg-brand-50 p-4"
      data-testid="face-consent-form"
    >
      <h3 id="face-consent-heading" className="text-base font-semibold text-slate-900">
        Before your first style: how your photo is used
      </h3>
      <div className="mt-2 space-y-2 text-sm text-slate-700">
        {outdated ? (
          <p className="font-medium" data-testid="consent-outdated">
            You agreed to an earlier version of this text; read it again and agree to go on styling.
          </p>
        ) : null}
        {paragraphs.map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
        <p>
          You can withdraw this consent at any time in Settings, Privacy. Read the{" "}
          <Link to="/privacy" className="font-medium text-brand-700 underline">
            privacy page
          </Link>{" "}
          for what is stored, where and for how long.
        </p>
      </div>
      <Form method="post" action={action} className="mt-4">
        <input type="hidden" name="intent" value="give-consent" />
        {back ? <input type="hidden" name="back" value={back} /> : null}
        <button type="submit" className="btn-primary">
          I agree: process my face to style my photos
        </button>
      </Form>
    </section>
  );
}
