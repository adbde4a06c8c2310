import { useEffect, useRef } from "react";
import { useNavigation } from "@remix-run/react";
import type { SubmissionResult } from "@conform-to/react";
import { useToast } from "~/ui/toaster";
import type { ManualField, Platform } from "~/features/publishing/platforms";
import { manualFieldLabel } from "~/features/publishing/platforms";
import { COPY } from "~/features/publishing/types";
import { useScreenForm } from "~/ui/forms/use-screen-form";
import { FieldErrorText } from "~/ui/form-field";
import { PostForm, SubmitButton } from "~/ui/forms/post-form";

/** The form's schema, loaded after the page rendered. */
const loadManualIntegrationSchema = () =>
  import("~/features/publishing/schemas").then((m) => m.manualIntegrationSchema);

const PLACEHOLDERS: Record<ManualField, string> = {
  apiKey: "Paste your key",
  walletAddress: "0x…",
  shopDomain: "my-store.myshopify.com",
  username: "",
};

function hasFieldErrors(error: Record<string, string[] | null>): boolean {
  return Object.entries(error).some(([name, messages]) => name !== "" && Boolean(messages?.length));
}

/**
 * Manual setup: the API key, plus the wallet address
 * where the platform needs one (checked for the EVM format), or for Shopify a
 * store's domain and custom-app Admin API token, or for Adobe Stock the
 * SFTP username and generated password. Every shown field is
 * required. Posts to /integrations (post/redirect/get with a flash message).
 */
export function ManualSetupForm({
  platform,
  lastResult,
}: {
  platform: Platform;
  lastResult?: SubmissionResult<string[]>;
}) {
  const toast = useToast();
  const navigation = useNavigation();
  // A refused field says so beside the field, and nothing else does.
  const [form, fields] = useScreenForm({
    id: `manual-${platform.id}`,
    loadSchema: loadManualIntegrationSchema,
    lastResult,
  });
  const shown = useRef<unknown>(null);
  useEffect(() => {
    if (!lastResult || shown.current === lastResult || !lastResult.error) return;
    shown.current = lastResult;
    // Only a refusal no field explains (e.g. the server could not save) gets the toast.
    if (Object.keys(lastResult.error).length && !hasFieldErrors(lastResult.error))
      toast({ kind: "error", ...COPY.integrationFailed });
  }, [lastResult, toast]);

  const pending =
    navigation.state !== "idle" &&
    navigation.formData?.get("platform") === platform.id &&
    navigation.formData?.get("intent") === "manual";
  const byName: Record<ManualField, (typeof fields)["apiKey"]> = {
    apiKey: fields.apiKey,
    walletAddress: fields.walletAddress,
    shopDomain: fields.shopDomain,
    username: fields.username,
  };
  return (
    <PostForm
      form={form}
      action="/integrations"
      hidden={{ intent: "manual", platform: platform.id }}
      className="space-y-3"
      testId={`manual-setup-${platform.id}`}
    >
      {platform.manualFields.map((name) => {
        const field = byName[name];
        return (
          <div key={name}>
            <label htmlFor={field.id} className="field-label">
              {manualFieldLabel(platform, name)}
            </label>
            <input
              id={field.id}
              name={field.name}
              type={name === "apiKey" ? "password" : "text"}
              autoComplete="off"
              spellCheck={false}
              required
              pattern={name === "walletAddress" ? "^0x[0-9a-fA-F]{40}$" : undefined}
              placeholder={
                name === "apiKey" && platform.capability === "sftpSubmission"
                  ? "Paste the generated password"
                  : PLACEHOLDERS[name] || undefined
              }
              className="field-input font-mono"
              aria-invalid={field.errors?.length ? true : undefined}
              aria-describedby={field.errors?.length ? field.errorId : undefined}
            />
            <FieldErrorText field={field} />
          </div>
        );
      })}
      <SubmitButton pending={pending} pendingLabel="Saving…" label="Save connection" wide />
    </PostForm>
  );
}
