import { useState } from "react";
import { Link } from "@remix-run/react";
import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import {
  defaultListingDescription,
  defaultListingTitle,
} from "~/features/market/catalog/listing-defaults";
import { findPlatform } from "~/features/publishing/platforms";
import type { PlatformId, PlatformOption } from "~/features/publishing/platforms";
import type { PublicationStatus } from "~/features/publishing/types";
import { COPY, postingCompleteText, titleRefusal } from "~/features/publishing/types";
import { styleName } from "~/lib/styles";
import {
  DescriptionField,
  PlatformCheckbox,
  PlatformsFieldset,
  PriceField,
  TierPriceFields,
  TitleField,
  wasSentBack,
} from "~/features/publishing/publications/components/listing-fields";
import { PlatformBadge } from "~/features/publishing/components/platform-badge";
import { ReleaseHint } from "~/features/publishing/releases/components/release-hint";
import { PublicationList } from "~/features/publishing/publications/components/publication-status";
import type { PublicationView } from "~/features/publishing/components/types";
import { useHydrated } from "~/ui/use-hydrated";
import { DialogToastSlot } from "~/ui/toaster";
import { isOkAnswer, isSubmissionResult } from "~/ui/forms/fetcher-answers";
import { ListImageForm } from "~/ui/forms/list-image-form";
import { useFetcherForm } from "~/ui/forms/use-fetcher-form";

/** The form's schema, loaded after the page rendered. */
const loadPostSchema = () => import("~/features/publishing/schemas").then((m) => m.postSchema);

/** Where the form posts (app/routes/_studio+/studio.list.tsx), and the dialog's page without JavaScript. */
export const LIST_ACTION = "/studio/list";

export interface PostResult {
  success: boolean;
  platform: PlatformId;
  name: string;
  status: PublicationStatus;
  url?: string;
  authUrl?: string;
  error?: string;
  /** With `live`: e.g. that the storefront is password-protected. */
  note?: string;
  /** A stock agency's row: the model release PDF, or null while there is none. */
  modelReleaseUrl?: string | null;
}

export function postResultViews(
  results: PostResult[],
  stylizedImageId?: string,
): PublicationView[] {
  return results.map((result) => {
    const kit = result.status === "ready_to_mint" || result.status === "export_ready";
    return {
      id: result.platform,
      name: result.name,
      icon: findPlatform(result.platform)?.icon ?? "",
      url: result.url ?? null,
      status: result.status,
      error: result.error ?? null,
      note: result.note ?? null,
      downloadUrl: kit ? (result.url ?? null) : null,
      authUrl: result.authUrl ?? null,
      ...(result.modelReleaseUrl !== undefined ? { modelReleaseUrl: result.modelReleaseUrl } : {}),
      ...(stylizedImageId ? { stylizedImageId } : {}),
    };
  });
}

export interface ListForSaleImage {
  id: string;
  style: string;
  /** Dollars, e.g. "25". */
  price: string;
  /** The live listing's Extended and Exclusive prices (dollars), or null: the fields start from them. */
  extendedPrice?: string | null;
  exclusivePrice?: string | null;
}

/**
 * The list-for-sale form: only connected platforms
 * can be chosen (a link to /integrations when none is), the title defaults to
 * '<Style> Style Selfie', the price must be more than 0 (min 0.01, step 0.01).
 * The dialog's body with JavaScript; the /studio/list page without.
 */
export function ListForSaleForm({
  image,
  platforms,
  pageResult,
  onClose,
}: {
  image: ListForSaleImage;
  platforms: PlatformOption[];
  pageResult?: unknown;
  onClose?: () => void;
}) {
  const [results, setResults] = useState<PostResult[] | null>(null);
  const name = styleName(image.style);
  const connected = platforms.filter((p) => p.connected && !p.closed);
  const externalConnected = connected.some((p) => p.id !== "marketplace");

  const { fetcher, form, fields, pending } = useFetcherForm({
    id: `list-${image.id}`,
    loadSchema: loadPostSchema,
    pageResult,
    invalidSubmitToast: (errors) => {
      if (errors.platforms?.length) return { kind: "error", ...COPY.selectOnePlatform };
      if (errors.price?.length)
        return { kind: "error", title: "Error", description: COPY.invalidPrice };
      if (errors.title?.length) return titleRefusal(errors.title[0]);
    },
    answerWhenIdle: true,
    onAnswer: (answer) => {
      if (isOkAnswer<{ results: PostResult[] }>(answer)) {
        setResults(answer.results);
        const successes = answer.results.filter((r) => r.success).length;
        return {
          kind: "success",
          ...COPY.postingComplete,
          description: postingCompleteText(successes, answer.results.length),
        };
      }
      // The server's sentence when it gave one (say, a face that did not agree to be sold).
      if (isSubmissionResult(answer) && answer.error?.[""]?.length)
        return {
          kind: "error",
          ...COPY.postFailed,
          description: answer.error[""][0] || COPY.postFailed.description,
        };
    },
  });

  if (results) {
    return (
      <div className="space-y-4" data-testid="list-for-sale-results">
        <p className="text-sm text-slate-700">
          {postingCompleteText(results.filter((r) => r.success).length, results.length)}
        </p>
        <PublicationList publications={postResultViews(results, image.id)} />
        {onClose ? (
          <div className="flex justify-end">
            <button type="button" className="btn-primary" onClick={onClose}>
              Done
            </button>
          </div>
        ) : null}
      </div>
    );
  }

  const sentBack = wasSentBack(form);
  return (
    <ListImageForm
      fetcher={fetcher}
      form={form}
      action={`${LIST_ACTION}?image=${encodeURIComponent(image.id)}`}
      hidden={{ imageId: image.id }}
      jsMarker="_js"
      className="space-y-4"
      testId="list-for-sale-form"
    >
      <PlatformsFieldset
        field={fields.platforms}
        listClassName="mt-2 space-y-2"
        footer={
          <p className="mt-2 text-xs text-slate-600">
            {externalConnected
              ? "Only connected platforms are shown. "
              : "No other platforms are connected yet. "}
            {/* A new tab, so this form keeps what was typed. */}
            <Link
              to="/integrations"
              target="_blank"
              rel="noopener"
              className="font-semibold text-brand-700 underline"
            >
              {externalConnected
                ? "Manage integrations"
                : "Connect platforms on the Integrations page"}
              <span className="sr-only"> (opens in a new tab)</span>
            </Link>
          </p>
        }
      >
        {connected.map((platform) => (
          <label
            key={platform.id}
            className="flex items-center gap-3 rounded-lg border border-slate-200 bg-white p-2.5 text-sm"
          >
            <PlatformCheckbox
              field={fields.platforms}
              platformId={platform.id}
              sentBack={sentBack}
            />
            <PlatformBadge platformId={platform.id} size="sm" />
            <span className="flex-1 font-medium text-slate-900">
              {platform.name}
              <ReleaseHint platformId={platform.id} imageId={image.id} />
            </span>
            <span className="text-xs text-slate-500">Fee {findPlatform(platform.id)?.fee}</span>
          </label>
        ))}
      </PlatformsFieldset>

      <TitleField
        field={fields.title}
        defaultValue={defaultListingTitle(name)}
        sentBack={sentBack}
      />
      <DescriptionField
        field={fields.description}
        defaultValue={defaultListingDescription(name)}
        sentBack={sentBack}
      />
      <PriceField field={fields.price} defaultValue={image.price} sentBack={sentBack} />
      <TierPriceFields
        extended={fields.extendedPrice}
        exclusive={fields.exclusivePrice}
        defaults={{ extended: image.extendedPrice, exclusive: image.exclusivePrice }}
        sentBack={sentBack}
      />
      <div className="flex justify-end gap-2">
        {onClose ? (
          <button type="button" className="btn-secondary" onClick={onClose}>
            Cancel
          </button>
        ) : null}
        <button type="submit" className="btn-primary" disabled={pending}>
          {pending ? "Listing…" : "List for Sale"}
        </button>
      </div>
    </ListImageForm>
  );
}

/**
 * The dashboard's "List for Sale" action: a link to /studio/list (works
 * without JavaScript) that opens the Headless UI dialog when JavaScript runs.
 */
export function ListForSale({
  image,
  platforms,
  className = "btn-secondary",
  label = "List for Sale",
}: {
  image: ListForSaleImage;
  platforms: PlatformOption[];
  className?: string;
  label?: string;
}) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Link
        to={`${LIST_ACTION}?image=${encodeURIComponent(image.id)}`}
        className={className}
        data-testid="list-for-sale-button"
        onClick={(event) => {
          if (!hydrated) return;
          event.preventDefault();
          setOpen(true);
        }}
      >
        {label}
      </Link>
      <Dialog open={open} onClose={() => setOpen(false)} className="relative z-40">
        <div className="fixed inset-0 bg-slate-900/40" aria-hidden="true" />
        <div className="fixed inset-0 overflow-y-auto p-4">
          <div className="flex min-h-full items-center justify-center">
            <DialogPanel className="card w-full max-w-lg p-6" data-testid="list-for-sale-dialog">
              <DialogTitle className="text-lg font-semibold text-slate-900">
                List for Sale
              </DialogTitle>
              <DialogToastSlot />
              <p className="mt-1 mb-4 text-sm text-slate-600">
                Choose where to sell this {styleName(image.style).toLowerCase()} image.
              </p>
              <ListForSaleForm image={image} platforms={platforms} onClose={() => setOpen(false)} />
            </DialogPanel>
          </div>
        </div>
      </Dialog>
    </>
  );
}
