import { getTextareaProps } from "@conform-to/react";
import type { FormMetadata, SubmissionResult } from "@conform-to/react";
import { Form, useNavigation } from "@remix-run/react";
import { useState } from "react";
import type { ReactNode } from "react";
import type { Account } from "~/features/accounts/account-types";
import { BIO_MAX, HANDLE_MAX, HANDLE_MIN } from "~/features/accounts/profile/profile-schemas";
import type {
  emailChangeSchema,
  profileFormSchema,
} from "~/features/accounts/profile/profile-schemas";
import { checkUploadFile } from "~/lib/upload-check";
import { Avatar } from "~/ui/avatar";
import { TextField } from "~/ui/form-field";
import { useScreenForm } from "~/ui/forms/use-screen-form";
import { PostForm, SubmitButton } from "~/ui/forms/post-form";
import { useIntentPending } from "~/ui/forms/use-intent-pending";

/** The forms' schemas, loaded after the page rendered. */
type ProfileFormSchema = typeof profileFormSchema;
type EmailChangeSchema = typeof emailChangeSchema;
const loadProfileSchema = () =>
  import("~/features/accounts/profile/profile-schemas").then((m) => m.profileFormSchema);
const loadEmailSchema = () =>
  import("~/features/accounts/profile/profile-schemas").then((m) => m.emailChangeSchema);

type Result = SubmissionResult<string[]> | undefined;

/** The answer of the form a post came from: each form shows only its own. */
function resultFor(lastResult: Result, intent: string): Result {
  return lastResult?.initialValue?.intent === intent ? lastResult : undefined;
}

/**
 * The Profile tab: the photo, the names, the public handle and bio, and the
 * email. Every form is a plain post to /settings?index, the tab's own route
 * rather than the settings' layout (it works without
 * JavaScript); with it, each form checks itself before sending, and the photo
 * is checked for size and type as soon as it is chosen.
 */
export function ProfileSettings({ account, lastResult }: { account: Account; lastResult: Result }) {
  return (
    <div className="space-y-8" data-testid="profile-settings">
      <PhotoForm account={account} />
      <ProfileForm account={account} lastResult={resultFor(lastResult, "profile")} />
      <EmailForm account={account} lastResult={resultFor(lastResult, "email")} />
    </div>
  );
}

const displayName = (account: Account) =>
  `${account.firstName} ${account.lastName}`.trim() || account.email;

function PhotoForm({ account }: { account: Account }) {
  const navigation = useNavigation();
  const pending = navigation.state !== "idle" && navigation.formEncType === "multipart/form-data";
  const [problem, setProblem] = useState<{ title: string; description: string } | null>(null);
  return (
    <section aria-labelledby="photo-heading">
      <h2 id="photo-heading" className="text-lg font-semibold text-slate-900">
        Profile photo
      </h2>
      <div className="mt-3 flex flex-wrap items-center gap-4">
        <span data-testid="profile-photo">
          <Avatar
            src={account.profileImageUrl}
            name={displayName(account)}
            size="h-20 w-20 text-lg"
          />
        </span>
        <Form
          method="post"
          action="/settings?index"
          encType="multipart/form-data"
          className="flex flex-wrap items-center gap-3"
          data-testid="photo-form"
        >
          <label htmlFor="profile-photo-file" className="sr-only">
            Choose a photo
          </label>
          <input
            id="profile-photo-file"
            name="image"
            type="file"
            accept="image/*"
            required
            aria-invalid={problem ? true : undefined}
            aria-describedby={problem ? "profile-photo-error" : undefined}
            className="w-full max-w-full text-sm sm:w-auto"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0];
              setProblem(file ? checkUploadFile(file) : null);
            }}
          />
          <button type="submit" className="btn-secondary" disabled={pending || problem !== null}>
            {pending ? "Uploading..." : "Upload photo"}
          </button>
        </Form>
      </div>
      {problem ? (
        <p id="profile-photo-error" role="alert" className="field-error mt-2">
          {problem.title}: {problem.description}
        </p>
      ) : (
        <p className="mt-2 text-sm text-slate-500">
          JPG or PNG, at most 10MB. It is cropped to a square and shown with your name.
        </p>
      )}
    </section>
  );
}

function ProfileForm({ account, lastResult }: { account: Account; lastResult: Result }) {
  const pending = useIntentPending("profile");
  const [form, fields] = useScreenForm<
    ProfileFormSchema,
    { firstName: string; lastName: string; handle: string; bio: string },
    { firstName: string; lastName: string; handle: string | null; bio: string | null }
  >({
    id: "profile",
    loadSchema: loadProfileSchema,
    lastResult,
    defaultValue: {
      firstName: account.firstName,
      lastName: account.lastName,
      handle: account.handle ?? "",
      bio: account.bio ?? "",
    },
  });
  return (
    <section aria-labelledby="profile-heading">
      <h2 id="profile-heading" className="text-lg font-semibold text-slate-900">
        Profile
      </h2>
      <SettingsForm form={form} intent="profile">
        <TextField field={fields.firstName} label="First name" autoComplete="given-name" />
        <TextField field={fields.lastName} label="Last name" autoComplete="family-name" />
        <div className="sm:col-span-2">
          <TextField
            field={fields.handle}
            label="Public handle"
            autoComplete="off"
            placeholder="your-name"
          />
          <p className="mt-1 text-xs text-slate-500">
            {HANDLE_MIN}–{HANDLE_MAX} characters: lower-case letters, digits and &quot;-&quot;. It
            names your public page.
          </p>
        </div>
        <div className="sm:col-span-2">
          <label htmlFor={fields.bio.id} className="field-label">
            Bio
          </label>
          <textarea
            {...getTextareaProps(fields.bio, { ariaAttributes: true })}
            key={fields.bio.key}
            rows={3}
            maxLength={BIO_MAX}
            className="field-input"
          />
          {fields.bio.errors?.length ? (
            <p id={fields.bio.errorId} className="field-error">
              {fields.bio.errors[0]}
            </p>
          ) : (
            <p className="mt-1 text-xs text-slate-500">At most {BIO_MAX} characters.</p>
          )}
        </div>
        <div className="sm:col-span-2">
          <SubmitButton pending={pending} pendingLabel="Saving..." label="Save profile" />
        </div>
      </SettingsForm>
    </section>
  );
}

function EmailForm({ account, lastResult }: { account: Account; lastResult: Result }) {
  const pending = useIntentPending("email");
  const [form, fields] = useScreenForm<EmailChangeSchema, { email: string; password: string }>({
    id: "email-change",
    loadSchema: loadEmailSchema,
    lastResult,
  });
  return (
    <section aria-labelledby="email-heading">
      <h2 id="email-heading" className="text-lg font-semibold text-slate-900">
        Email
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        You sign in with <strong data-testid="current-email">{account.email}</strong>. A new address
        is used once you open the link we mail to it (within 24 hours).
      </p>
      {account.pendingEmail ? (
        <p
          role="status"
          className="mt-3 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-900"
          data-testid="pending-email"
        >
          Waiting for you to open the link sent to <strong>{account.pendingEmail}</strong>.
        </p>
      ) : null}
      <SettingsForm form={form} intent="email">
        <TextField field={fields.email} label="New email" type="email" autoComplete="email" />
        <TextField
          field={fields.password}
          label="Current password"
          type="password"
          autoComplete="current-password"
        />
        <div className="sm:col-span-2">
          <button type="submit" className="btn-secondary" disabled={pending}>
            {pending ? "Sending..." : "Send confirmation link"}
          </button>
        </div>
      </SettingsForm>
    </section>
  );
}

/** A form of the settings page, posted with its intent; its errors span the grid's full row. */
function SettingsForm<Schema extends Record<string, unknown>>({
  form,
  intent,
  children,
}: {
  form: FormMetadata<Schema, string[]>;
  intent: "profile" | "email";
  children: ReactNode;
}) {
  return (
    <PostForm
      form={form}
      action="/settings?index"
      hidden={{ intent }}
      className="mt-3 grid gap-4 sm:grid-cols-2"
      testId={`${intent}-form`}
      errorsClassName="sm:col-span-2"
    >
      {children}
    </PostForm>
  );
}
