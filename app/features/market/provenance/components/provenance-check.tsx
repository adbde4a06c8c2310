import { Form, useNavigation } from "@remix-run/react";
import { AlertMessage } from "~/ui/alert-message";
import { SubmitButton } from "~/ui/forms/post-form";
import { PRODUCT_NAME } from "~/lib/product";
import {
  PROVENANCE_FIELD,
  sourceTypeCode,
  sourceTypeWords,
  type ProvenanceReport,
} from "~/lib/content-credentials";

/** What the /provenance page shows after a check: the report, or the sentence of a refusal. */
export type ProvenanceOutcome = { report: ProvenanceReport } | { refused: string };

/**
 * /provenance: a form that sends one file (multipart, a plain form post that
 * works without JavaScript) and the answer of the check, the same the API
 * gives (POST /api/provenance/check).
 */
export function ProvenanceCheck({ outcome }: { outcome?: ProvenanceOutcome }) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formAction === "/provenance";
  return (
    <>
      <p className="mt-1 text-sm text-slate-600">
        Content Credentials (C2PA) are a signed record inside an image file of how it was made.
        Every file {PRODUCT_NAME} delivers carries one: choose a JPEG, PNG or WebP file (up to 10
        MB) to read it. The file is checked and not kept.
      </p>
      <Form
        method="post"
        action="/provenance"
        encType="multipart/form-data"
        className="mt-6 space-y-4"
        data-testid="provenance-form"
      >
        <div>
          <label htmlFor="provenance-file" className="field-label">
            File to check
          </label>
          <input
            id="provenance-file"
            type="file"
            name={PROVENANCE_FIELD}
            accept="image/jpeg,image/png,image/webp"
            required
            className="mt-1 block w-full text-sm text-slate-700"
          />
        </div>
        <SubmitButton pending={pending} label="Check the file" pendingLabel="Checking…" />
      </Form>
      {outcome ? <Outcome outcome={outcome} /> : null}
    </>
  );
}

function Outcome({ outcome }: { outcome: ProvenanceOutcome }) {
  if ("refused" in outcome)
    return (
      <AlertMessage margin="mt-6" testId="provenance-refused">
        {outcome.refused}
      </AlertMessage>
    );
  const { report } = outcome;
  if (!report.manifest)
    return (
      <section
        className="mt-6 rounded-lg border border-slate-200 p-4"
        data-testid="provenance-result"
      >
        <h2 className="font-semibold text-slate-900">No Content Credentials</h2>
        <p className="mt-1 text-sm text-slate-700">
          This file carries no C2PA manifest. A copy saved again by another program (edited,
          converted, a screenshot, most social networks) loses it: the file as it was downloaded
          keeps it.
        </p>
      </section>
    );
  return (
    <section
      className="mt-6 rounded-lg border border-slate-200 p-4"
      data-testid="provenance-result"
    >
      <h2 className="font-semibold text-slate-900">
        {report.valid ? "Content Credentials: valid" : "Content Credentials: not valid"}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {report.valid
          ? "The file is unchanged since it was signed. Who signed it is what the signer's certificate says; a certificate a server made itself is vouched for by no one."
          : "The file carries a manifest, but it does not check out: the file was changed after it was signed, or the manifest or its signature is broken."}
      </p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="font-medium text-slate-900">Signed by</dt>
        <dd className="text-slate-700 wrap-anywhere" data-testid="provenance-signer">
          {report.signer ?? "Not stated"}
        </dd>
        <dt className="font-medium text-slate-900">How it was made</dt>
        <dd className="text-slate-700 wrap-anywhere" data-testid="provenance-source-type">
          {report.digitalSourceType
            ? `${sourceTypeWords(report.digitalSourceType)} (${sourceTypeCode(report.digitalSourceType)})`
            : "Not stated"}
        </dd>
        <dt className="font-medium text-slate-900">Written by</dt>
        <dd className="text-slate-700 wrap-anywhere">{report.claimGenerator ?? "Not stated"}</dd>
        <dt className="font-medium text-slate-900">Made</dt>
        <dd className="text-slate-700">
          {report.createdAt ? (
            <time dateTime={report.createdAt}>{report.createdAt.slice(0, 10)}</time>
          ) : (
            "Not stated"
          )}
        </dd>
      </dl>
    </section>
  );
}
