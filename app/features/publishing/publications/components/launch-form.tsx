import { useState } from "react";
import { Link } from "@remix-run/react";
import { findPlatform } from "~/features/publishing/platforms";
import { COPY, titleRefusal } from "~/features/publishing/types";
import {
  defaultListingDescription,
  defaultListingTitle,
} from "~/features/market/catalog/listing-defaults";
import { styleName, suggestedPrice } from "~/lib/styles";
import { PlatformBadge } from "~/features/publishing/components/platform-badge";
import { ReleaseHint } from "~/features/publishing/releases/components/release-hint";
import { LaunchResult } from "~/features/publishing/publications/components/launch-result";
import {
  DescriptionField,
  FieldError,
  PlatformCheckbox,
  PlatformsFieldset,
  PriceField,
  TierPriceFields,
  startChecked,
  startValue,
  TitleField,
  wasSentBack,
} from "~/features/publishing/publications/components/listing-fields";
import type { PlatformOption } from "~/features/publishing/platforms";
import type { LaunchResultData } from "~/features/publishing/components/types";
import { isOkAnswer, isSubmissionResult } from "~/ui/forms/fetcher-answers";
import { ListImageForm } from "~/ui/forms/list-image-form";
import { useFetcherForm } from "~/ui/forms/use-fetcher-form";

/** The form's schema, loaded after the page rendered. */
const loadLaunchSchema = () => import("~/features/publishing/schemas").then((m) => m.launchSchema);

/** The form's starting values for a stylized image (as the dashboard's image list answers it). */
export function launchDefaultsFor(image: {
  style: string;
  price?: string | null;
  licensingEnabled?: boolean;
  nftEnabled?: boolean;
  extendedPrice?: string | null;
  exclusivePrice?: string | null;
}): LaunchFormProps["defaults"] {
  const name = styleName(image.style);
  return {
    title: defaultListingTitle(name),
    description: defaultListingDescription(name),
    price: image.price ?? String(suggestedPrice(image.style)),
    licensingEnabled: image.licensingEnabled ?? true,
    nftEnabled: image.nftEnabled ?? false,
    tags: "",
    extendedPrice: image.extendedPrice ?? null,
    exclusivePrice: image.exclusivePrice ?? null,
  };
}

/** Where the form posts (app/routes/_studio+/studio.launch.tsx). */
export const LAUNCH_ACTION = "/studio/launch";

export interface LaunchFormProps {
  image: { id: string; style: string };
  defaults: {
    title: string;
    description: string;
    price: string;
    licensingEnabled: boolean;
    nftEnabled: boolean;
    tags?: string;
    /** The live listing's Extended and Exclusive prices (dollars), or null: the fields start from them. */
    extendedPrice?: string | null;
    exclusivePrice?: string | null;
  };
  platforms: PlatformOption[];
  /** The action's answer when the form was posted without JavaScript. */
  pageResult?: unknown;
  /** Called after the result view's 'Launch complete' (the dashboard goes back to step 1). */
  onDone?: () => void;
  onLaunched?: (result: LaunchResultData) => void;
}

/**
 * The dashboard's launch form: title, description,
 * price, tags, platforms, licensing and NFT switches. It validates on submit
 * with the messages of app/features/publishing/types.ts, then re-validates on input. With JavaScript it
 * posts in place and the result view replaces it; without, it posts to
 * /studio/launch, which redirects to the result page.
 */
export function LaunchForm({
  image,
  defaults,
  platforms,
  pageResult,
  onDone,
  onLaunched,
}: LaunchFormProps) {
  const [result, setResult] = useState<LaunchResultData | null>(null);
  const { fetcher, form, fields, pending } = useFetcherForm({
    id: `launch-${image.id}`,
    loadSchema: loadLaunchSchema,
    pageResult,
    // A refused submit: a toast for the title, else the platforms, else the first other error.
    invalidSubmitToast: (errors) => {
      if (errors.title?.length) return titleRefusal(errors.title[0]);
      if (errors.platforms?.length) return { kind: "error", ...COPY.selectPlatforms };
      return {
        kind: "error",
        title: COPY.launchFailed.title,
        description: Object.values(errors).flat()[0] ?? undefined,
      };
    },
    answerWhenIdle: true,
    onAnswer: (answer) => {
      if (isOkAnswer<{ result: LaunchResultData }>(answer)) {
        setResult(answer.result);
        onLaunched?.(answer.result);
        return { kind: "success", ...COPY.launched };
      }
      if (isSubmissionResult(answer)) {
        const message = answer.error?.[""]?.[0] ?? Object.values(answer.error ?? {}).flat()[0];
        return { kind: "error", title: COPY.launchFailed.title, description: message ?? undefined };
      }
    },
  });

  if (result) {
    return (
      <LaunchResult
        result={result}
        onDone={() => {
          setResult(null);
          onDone?.();
        }}
      />
    );
  }

  const open = platforms.filter((p) => !p.closed);
  const sentBack = wasSentBack(form);

  return (
    <ListImageForm
      fetcher={fetcher}
      form={form}
      action={`${LAUNCH_ACTION}?image=${encodeURIComponent(image.id)}`}
      hidden={{ imageId: image.id }}
      jsMarker="_js"
      className="space-y-5"
      testId="launch-form"
    >
      <TitleField field={fields.title} defaultValue={defaults.title} sentBack={sentBack} />

      <DescriptionField
        field={fields.description}
        defaultValue={defaults.description}
        showError
        sentBack={sentBack}
      />

      <div className="grid gap-4 sm:grid-cols-2">
        <PriceField field={fields.price} defaultValue={defaults.price} sentBack={sentBack} />
        <div>
          <label htmlFor={fields.tags.id} className="field-label">
            Tags
          </label>
          <input
            id={fields.tags.id}
            name={fields.tags.name}
            defaultValue={startValue(fields.tags, defaults.tags ?? "", sentBack)}
            placeholder="anime, portrait, ai art"
            className="field-input"
            aria-invalid={fields.tags.errors?.length ? true : undefined}
            aria-describedby={
              fields.tags.errors?.length
                ? `${fields.tags.id}-hint ${fields.tags.errorId}`
                : `${fields.tags.id}-hint`
            }
          />
          <p id={`${fields.tags.id}-hint`} className="mt-1 text-xs text-slate-500">
            Separate tags with commas.
          </p>
          <FieldError errors={fields.tags.errors} id={fields.tags.errorId} />
        </div>
      </div>
      <TierPriceFields
        extended={fields.extendedPrice}
        exclusive={fields.exclusivePrice}
        defaults={{ extended: defaults.extendedPrice, exclusive: defaults.exclusivePrice }}
        sentBack={sentBack}
      />

      <PlatformsFieldset field={fields.platforms} listClassName="mt-2 grid gap-2 sm:grid-cols-2">
        {open.map((platform) => {
          const entry = findPlatform(platform.id);
          return (
            <label
              key={platform.id}
              className={`flex items-center gap-3 rounded-lg border p-2.5 text-sm ${
                platform.connected
                  ? "border-slate-200 bg-white"
                  : "border-dashed border-slate-200 bg-slate-50 text-slate-500"
              }`}
            >
              <PlatformCheckbox
                field={fields.platforms}
                platformId={platform.id}
                sentBack={sentBack}
                disabled={!platform.connected}
              />
              <PlatformBadge platformId={platform.id} size="sm" />
              <span className="flex-1">
                <span className="block font-medium text-slate-900">{platform.name}</span>
                <span className="block text-xs text-slate-500">
                  {platform.connected ? entry?.fee && `Fee ${entry.fee}` : "Not connected"}
                </span>
                <ReleaseHint platformId={platform.id} imageId={image.id} />
              </span>
              {!platform.connected ? (
                // A new tab, so this form keeps what was typed.
                <Link
                  to={`/integrations?connect=${platform.id}#${platform.id}`}
                  target="_blank"
                  rel="noopener"
                  className="text-xs font-semibold text-brand-700 underline"
                >
                  Connect
                  <span className="sr-only"> (opens in a new tab)</span>
                </Link>
              ) : null}
            </label>
          );
        })}
      </PlatformsFieldset>

      <div className="grid gap-3 sm:grid-cols-2">
        <SwitchField
          name="enableLicensing"
          label="Enable licensing"
          hint="Sell the standard commercial license."
          defaultChecked={startChecked(fields.enableLicensing, "true", defaults.licensingEnabled)}
        />
        <SwitchField
          name="enableNFT"
          label="Enable NFT"
          hint="Prepare mint kits for NFT platforms."
          defaultChecked={startChecked(fields.enableNFT, "true", defaults.nftEnabled)}
        />
      </div>

      <div className="flex justify-end">
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? "Launching…" : "Launch Marketing"}
        </button>
      </div>
    </ListImageForm>
  );
}

/**
 * An on/off setting that works without JavaScript: a hidden "false" then the
 * checkbox's "true" (the last value wins), styled as a switch.
 */
function SwitchField({
  name,
  label,
  hint,
  defaultChecked,
}: {
  name: string;
  label: string;
  hint: string;
  defaultChecked: boolean;
}) {
  const id = `switch-${name}`;
  return (
    <div className="flex items-start gap-3 rounded-lg border border-slate-200 bg-white p-3">
      <input type="hidden" name={name} value="false" />
      <input
        id={id}
        type="checkbox"
        role="switch"
        name={name}
        value="true"
        defaultChecked={defaultChecked}
        aria-describedby={`${id}-hint`}
        className="peer h-6 w-11 shrink-0 cursor-pointer appearance-none rounded-full bg-slate-300 transition-colors before:block before:h-5 before:w-5 before:translate-x-0.5 before:translate-y-0.5 before:rounded-full before:bg-white before:shadow before:transition-transform checked:bg-brand-600 checked:before:translate-x-[1.375rem]"
      />
      <span>
        <label htmlFor={id} className="field-label">
          {label}
        </label>
        <span id={`${id}-hint`} className="block text-xs text-slate-500">
          {hint}
        </span>
      </span>
    </div>
  );
}
