import { createContext, useContext, useRef, useState } from "react";
import { Form, useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { useHydrated } from "~/ui/use-hydrated";
import { useScreenForm } from "~/ui/forms/use-screen-form";
import {
  FieldError,
  startChecked,
  startValue,
  wasSentBack,
} from "~/features/publishing/publications/components/listing-fields";
import { PostForm, SubmitButton } from "~/ui/forms/post-form";
import { useIntentPending } from "~/ui/forms/use-intent-pending";
import type { ModelReleaseJson } from "~/features/publishing/releases/model-release-types";

/** The form's schema, loaded after the page rendered. */
const loadModelReleaseSchema = () =>
  import("~/features/publishing/schemas").then((m) => m.modelReleaseSchema);

/** The image's current release, as the page shows it. */
export type ModelReleaseView = Omit<ModelReleaseJson, "id" | "stylizedImageId">;

export interface ModelReleaseState {
  imageId: string;
  ready: boolean;
  release: ModelReleaseView | null;
  sizeRefusal: string | null;
  suggestedName: string;
  suggestedEmail: string;
  today: string;
}

/** Where the forms post (app/routes/_studio+/studio.release.tsx). */
export function releaseAction(imageId: string): string {
  return `/studio/release?image=${encodeURIComponent(imageId)}`;
}

/** How the creator attaches a release in Adobe Stock's portal (Adobe takes none over SFTP). */
export function AdobeReleaseSteps() {
  return (
    <div
      className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700"
      data-testid="adobe-release-steps"
    >
      <p className="font-semibold text-slate-900">Model releases in Adobe Stock</p>
      <p className="mt-1">
        Adobe needs a signed model release for every image that shows a real person, and it does not
        take releases over SFTP. Make the release here (Model release, under the image&apos;s
        listing), download the PDF, then in Adobe&apos;s contributor portal:
      </p>
      <ol className="mt-1 list-decimal space-y-0.5 pl-5">
        <li>in the Uploaded Files tab, select the file we sent;</li>
        <li>
          in the right panel, choose Yes under &ldquo;Recognizable people or property?&rdquo;, then
          Create a new release and Bulk upload scanned releases (or Search for an existing release
          you uploaded before);
        </li>
        <li>
          upload the PDF and enter the model&apos;s first and last name, email address, the release
          language, the date signed and your role;
        </li>
        <li>complete the file&apos;s details and submit it for review.</li>
      </ol>
    </div>
  );
}

/** The release on file, with its download link (the owner's only). */
function CurrentRelease({ release }: { release: ModelReleaseView }) {
  const what =
    release.kind === "signed"
      ? `Signed here by ${release.modelName ?? "you"} on ${release.signedOn ?? release.createdAt.slice(0, 10)}${
          release.drawnSignature ? " (typed and drawn signature)" : ""
        }`
      : `Uploaded on ${release.createdAt.slice(0, 10)}`;
  return (
    <div
      className="rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900"
      data-testid="model-release-current"
    >
      <p className="font-semibold">Model release on file</p>
      <p>
        {what}; PDF, {Math.max(1, Math.round(release.bytes / 1024))} KB.
      </p>
      {release.awaitingPhotographer ? (
        <p className="mt-1 font-semibold" data-testid="model-release-awaiting-photographer">
          It names someone else as the photographer: have them sign the PDF as photographer, then
          upload the signed copy below. Until then, Adobe Stock is not sent this image.
        </p>
      ) : null}
      <a
        href={release.downloadUrl}
        download
        className="mt-2 inline-block font-semibold text-brand-700 underline"
        data-testid="model-release-download"
      >
        Download the model release (PDF)
      </a>
    </div>
  );
}

/**
 * A drawn signature (with JavaScript only): a canvas the creator draws on,
 * copied into a hidden field as a PNG data URL. Without JavaScript the typed
 * signature is the signature.
 */
function DrawnSignature() {
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const [value, setValue] = useState("");
  const point = (event: React.PointerEvent<HTMLCanvasElement>) => {
    const box = event.currentTarget.getBoundingClientRect();
    return {
      x: ((event.clientX - box.left) / box.width) * event.currentTarget.width,
      y: ((event.clientY - box.top) / box.height) * event.currentTarget.height,
    };
  };
  return (
    <div>
      <p className="field-label" id="drawn-signature-label">
        Draw your signature (optional)
      </p>
      <canvas
        ref={canvas}
        width={480}
        height={140}
        aria-labelledby="drawn-signature-label"
        className="w-full touch-none rounded-lg border border-slate-300 bg-white"
        data-testid="drawn-signature"
        onPointerDown={(event) => {
          drawing.current = true;
          const context = event.currentTarget.getContext("2d");
          const { x, y } = point(event);
          context?.beginPath();
          context?.moveTo(x, y);
        }}
        onPointerMove={(event) => {
          if (!drawing.current) return;
          const context = event.currentTarget.getContext("2d");
          if (!context) return;
          const { x, y } = point(event);
          context.lineWidth = 2.5;
          context.lineCap = "round";
          context.strokeStyle = "#0b1a5a";
          context.lineTo(x, y);
          context.stroke();
        }}
        onPointerUp={(event) => {
          drawing.current = false;
          setValue(event.currentTarget.toDataURL("image/png"));
        }}
      />
      <input type="hidden" name="drawnSignature" value={value} />
      <button
        type="button"
        className="btn-ghost mt-1 px-2 py-1 text-xs"
        onClick={() => {
          const element = canvas.current;
          element?.getContext("2d")?.clearRect(0, 0, element.width, element.height);
          setValue("");
        }}
      >
        Clear drawing
      </button>
    </div>
  );
}

type FieldMeta = {
  id: string;
  name: string;
  errors?: string[];
  errorId: string;
  initialValue?: unknown;
};

/** Whether the server sent the release form back (its fields then start from what was submitted). */
const SentBack = createContext(false);

/** The attributes that tie a field's control to its message when refused. */
function invalidProps(field: FieldMeta, hintId?: string) {
  const described =
    [hintId, field.errors?.length ? field.errorId : null].filter(Boolean).join(" ") || undefined;
  return {
    "aria-invalid": field.errors?.length ? true : undefined,
    "aria-describedby": described,
  };
}

/**
 * One labelled input of the release form (a textarea of `rows` lines when
 * given), with its message when refused; it starts from what was submitted
 * when the server sent the form back (a post without JavaScript, see
 * SentBack), else from `fallback`.
 */
function ReleaseField({
  field,
  label,
  hint,
  fallback = "",
  rows,
  ...input
}: {
  field: FieldMeta;
  label: string;
  hint?: string;
  fallback?: string;
  rows?: number;
} & Omit<React.InputHTMLAttributes<HTMLInputElement>, "id" | "name" | "defaultValue">) {
  const sentBack = useContext(SentBack);
  const hintId = `${field.id}-hint`;
  const control = {
    id: field.id,
    name: field.name,
    className: "field-input",
    ...invalidProps(field, hint ? hintId : undefined),
    defaultValue: startValue(field, fallback, sentBack),
  };
  return (
    <div>
      <label htmlFor={field.id} className="field-label">
        {label}
      </label>
      {hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      {rows ? (
        <textarea
          {...control}
          rows={rows}
          {...(input as React.TextareaHTMLAttributes<HTMLTextAreaElement>)}
        />
      ) : (
        <input {...control} {...input} />
      )}
      <FieldError errors={field.errors} id={field.errorId} />
    </div>
  );
}

/** A ticked box of the release form and its label, with its message when refused. */
function ReleaseCheckbox({
  field,
  value,
  defaultChecked,
  required,
  children,
}: {
  field: FieldMeta;
  value: string;
  defaultChecked?: boolean;
  required?: boolean;
  children: React.ReactNode;
}) {
  return (
    <>
      <div className="flex items-start gap-2">
        <input
          id={field.id}
          name={field.name}
          type="checkbox"
          value={value}
          required={required}
          defaultChecked={defaultChecked}
          className="choice-input"
          {...invalidProps(field)}
        />
        <label htmlFor={field.id} className="text-sm text-slate-700">
          {children}
        </label>
      </div>
      <FieldError errors={field.errors} id={field.errorId} />
    </>
  );
}

/**
 * Sign a release for yourself, with what Adobe's own release form asks: you
 * (the model: name, date of birth, address, email, phone), the shoot (date,
 * place), the photographer (you, ticked, or someone else by name), the date,
 * the same name typed as the signature, and the confirmation.
 */
function SignReleaseForm({
  state,
  lastResult,
}: {
  state: ModelReleaseState;
  lastResult?: SubmissionResult<string[]>;
}) {
  const hydrated = useHydrated();
  const [form, fields] = useScreenForm({
    id: `model-release-${state.imageId}`,
    loadSchema: loadModelReleaseSchema,
    lastResult,
  });
  const pending = useIntentPending("sign");
  const sentBack = wasSentBack(form);
  return (
    <PostForm
      form={form}
      action={releaseAction(state.imageId)}
      hidden={{ intent: "sign", id: state.imageId }}
      className="space-y-3"
      testId="model-release-sign"
    >
      <SentBack.Provider value={sentBack}>
        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold text-slate-900">You, the person shown</legend>
          <ReleaseField
            field={fields.modelName}
            label="Your full name (the person shown)"
            hint="As on your ID; the release prints it in capital letters."
            fallback={state.suggestedName}
            required
            maxLength={120}
            autoComplete="name"
          />
          <ReleaseField
            field={fields.dateOfBirth}
            label="Date of birth"
            hint="You must be 18 or older on the day the photo was taken."
            type="date"
            max={state.today}
            required
            autoComplete="bday"
          />
          <ReleaseField
            field={fields.address}
            label="Postal address"
            rows={2}
            required
            maxLength={300}
            autoComplete="street-address"
          />
          <ReleaseField
            field={fields.email}
            label="Email"
            type="email"
            fallback={state.suggestedEmail}
            required
            maxLength={254}
            autoComplete="email"
          />
          <ReleaseField
            field={fields.phone}
            label="Phone"
            type="tel"
            required
            maxLength={40}
            autoComplete="tel"
          />
        </fieldset>
        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold text-slate-900">The photo</legend>
          <ReleaseField
            field={fields.shootDate}
            label="Date the photo was taken"
            type="date"
            max={state.today}
            required
          />
          <ReleaseField
            field={fields.shootLocation}
            label="Where it was taken (optional)"
            hint="A city and country is enough."
            maxLength={120}
          />
          <ReleaseCheckbox
            field={fields.selfTaken}
            value="on"
            defaultChecked={startChecked(fields.selfTaken, "on", true, sentBack)}
          >
            I took this photo myself (a selfie): I sign as both the model and the photographer.
          </ReleaseCheckbox>
          <ReleaseField
            field={fields.photographerName}
            label="Or the photographer's full name, if someone else took it"
            hint="Untick the box above. They then sign the PDF as photographer, and you upload the signed copy below."
            maxLength={120}
            autoComplete="off"
          />
        </fieldset>
        <ReleaseField
          field={fields.signedOn}
          label="Date signed"
          type="date"
          fallback={state.today}
          max={state.today}
          required
        />
        <ReleaseField
          field={fields.signature}
          label="Signature: type your name again"
          required
          maxLength={120}
          autoComplete="off"
          className="field-input font-serif italic"
        />
        {hydrated ? <DrawnSignature /> : null}
        <ReleaseCheckbox field={fields.confirm} value="true" required>
          I am the person shown in this image, I am at least 18, and I release it for stock use (the
          release printed on the PDF).
        </ReleaseCheckbox>
      </SentBack.Provider>
      <SubmitButton pending={pending} pendingLabel="Signing…" label="Sign the model release" wide />
    </PostForm>
  );
}

/** Upload the signed release of the person shown (a PDF), e.g. Adobe's own release form signed by them. */
function UploadReleaseForm({ imageId }: { imageId: string }) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formEncType === "multipart/form-data";
  return (
    <Form
      method="post"
      action={releaseAction(imageId)}
      encType="multipart/form-data"
      className="space-y-3"
      data-testid="model-release-upload"
    >
      <div>
        <label htmlFor="release-file" className="field-label">
          Signed release (PDF, at most 10 MB)
        </label>
        <input
          id="release-file"
          name="release"
          type="file"
          accept="application/pdf,.pdf"
          required
          className="field-input"
        />
      </div>
      <button type="submit" className="btn-secondary w-full" disabled={pending}>
        {pending ? "Uploading…" : "Upload the signed release"}
      </button>
    </Form>
  );
}

/** What the release keeps of the model's personal data, where, and why (shown beside the form). */
function ReleasePrivacy() {
  return (
    <div
      className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700"
      data-testid="model-release-privacy"
    >
      <p className="font-semibold text-slate-900">What the release keeps, and why</p>
      <p className="mt-1">
        Adobe accepts a release only when it holds what its own release form asks: the model&apos;s
        name, date of birth, address, email and phone, the photographer, the shoot date and both
        signatures. Your date of birth, address, email and phone are printed on the release PDF and
        kept nowhere else: not on your profile, not in your listings, not sent to Adobe by us. The
        PDF is kept with this image for you to download and attach in Adobe&apos;s portal; it is in
        your data export, and it is deleted with the image or with your account.
      </p>
      <p className="mt-1">
        Prefer Adobe&apos;s own form? In Adobe&apos;s contributor portal, Create a new release, then
        Adobe Sign, sends Adobe&apos;s release for electronic signature (also the way for a model
        under 18, whose parent or guardian signs). Download the signed PDF and upload it below, so
        this image can be sent.
      </p>
    </div>
  );
}

/** The release page's body: the release on file, the two ways to make one, and how Adobe takes it. */
export function ModelReleasePanel({
  state,
  lastResult,
}: {
  state: ModelReleaseState;
  lastResult?: SubmissionResult<string[]>;
}) {
  if (!state.ready) {
    return (
      <p className="text-slate-700">
        This image is not ready yet: add its release once its style has been generated.
      </p>
    );
  }
  return (
    <div className="space-y-6" data-testid="model-release-panel">
      <p className="text-sm text-slate-700">
        A styled selfie shows a real, identifiable person, so Adobe Stock takes it only with a model
        release signed by that person. Nothing is submitted to Adobe Stock until this image has one.
      </p>
      <ReleasePrivacy />
      {state.release ? <CurrentRelease release={state.release} /> : null}
      {state.sizeRefusal ? (
        <p
          className="rounded-lg bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="model-release-size"
        >
          {state.sizeRefusal}
        </p>
      ) : null}
      <section aria-labelledby="sign-heading" className="space-y-3">
        <h2 id="sign-heading" className="font-semibold text-slate-900">
          {state.release ? "Sign a new release for yourself" : "Sign a release for yourself"}
        </h2>
        <SignReleaseForm state={state} lastResult={lastResult} />
      </section>
      <section aria-labelledby="upload-heading" className="space-y-3">
        <h2 id="upload-heading" className="font-semibold text-slate-900">
          Or upload the signed release of the person shown
        </h2>
        <UploadReleaseForm imageId={state.imageId} />
      </section>
      <AdobeReleaseSteps />
    </div>
  );
}
