import { useEffect, useRef } from "react";
import { Link, useNavigate } from "@remix-run/react";
import { useHydrated } from "~/ui/use-hydrated";
import { UrlDialog } from "~/ui/url-dialog";
import {
  LaunchForm,
  launchDefaultsFor,
} from "~/features/publishing/publications/components/launch-form";
import { ListForSaleForm } from "~/features/publishing/publications/components/list-for-sale";
import type { PlatformOption } from "~/features/publishing/platforms";
import { atPipeline, dashboardUrl } from "~/features/studio/workspace/dashboard-url";
import type { StylizedImageJson } from "~/features/studio/types";
import { styleName } from "~/lib/styles";
import { StudioImage } from "~/features/studio/images/components/studio-image";

/**
 * Step 4, Market: the image that goes to market and the ways to market it:
 * the launch form and the list-for-sale form (publishing), in URL-addressed
 * panels so they work without JavaScript. Once hydrated, List for Sale opens
 * as a dialog over the step (closing it returns to the step's URL).
 */
export function MarketStep({
  image,
  price,
  tiers,
  panel,
  platforms,
}: {
  image: StylizedImageJson;
  /** The price the forms start from (dollars): the listing's, the image's own or the style's suggested one. */
  price?: string;
  /** The live listing's Extended and Exclusive prices, which the forms start from. */
  tiers?: { extendedPrice?: string | null; exclusivePrice?: string | null };
  panel: "launch" | "sell" | null;
  platforms: PlatformOption[];
}) {
  const navigate = useNavigate();
  const hydrated = useHydrated();
  const startPrice = price ?? image.price;
  const closeSell = () =>
    navigate(dashboardUrl({ styled: image.id, step: "market" }), { preventScrollReset: true });
  // Opening a panel moves focus to its first field.
  const panelRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!panel) return;
    panelRef.current
      ?.querySelector<HTMLElement>("input:not([type=hidden]):not([disabled]), textarea, select")
      ?.focus();
  }, [panel, image.id, hydrated]);
  return (
    <section aria-labelledby="market-heading" className="card p-6" data-testid="market-step">
      <div className="flex flex-col gap-6 lg:flex-row">
        <StudioImage
          src={image.optimizedUrl ?? image.styledUrl}
          fallbackSrc={image.originalUrl}
          alt={`Your ${styleName(image.style)} image`}
          className="max-h-80 w-full self-start rounded-xl bg-slate-100 object-contain lg:w-64"
        />
        <div className="flex-1">
          <h2 id="market-heading" className="text-lg font-semibold text-slate-900">
            Take your {styleName(image.style)} image to market
          </h2>
          <p className="mt-1 text-sm text-slate-600">
            {image.optimizedUrl
              ? `Optimized as ${image.format?.toUpperCase()} at quality ${image.quality}.`
              : "Using the styled image as it is. You can still optimize it first."}
          </p>
          <div className="mt-4 flex flex-wrap gap-2">
            <Link
              to={dashboardUrl({ styled: image.id, step: "market", panel: "launch" })}
              className="btn-primary"
            >
              Launch Marketing
            </Link>
            <Link
              to={dashboardUrl({ styled: image.id, step: "market", panel: "sell" })}
              className="btn-secondary"
            >
              List for Sale
            </Link>
            <Link
              to={atPipeline(dashboardUrl({ styled: image.id, step: "optimize" }))}
              className="btn-ghost"
            >
              Back to Optimize
            </Link>
          </div>
          {panel === "sell" && hydrated ? (
            <UrlDialog
              title="List for Sale"
              titleId="list-for-sale-title"
              testId="market-panel"
              closeHref={dashboardUrl({ styled: image.id, step: "market" })}
              onClose={closeSell}
              cancelLabel="Close"
            >
              {(close) => (
                <div ref={panelRef} className="mt-4">
                  {/* The form comes first, so the dialog's first focus is its first field. */}
                  <ListForSaleForm
                    key={image.id}
                    image={{ id: image.id, style: image.style, price: startPrice, ...tiers }}
                    platforms={platforms}
                  />
                  <div className="mt-4 flex justify-end">{close}</div>
                </div>
              )}
            </UrlDialog>
          ) : panel ? (
            <div
              ref={panelRef}
              className="mt-6 rounded-xl border border-slate-200 bg-slate-50 p-4"
              data-testid="market-panel"
            >
              {panel === "launch" ? (
                <LaunchForm
                  key={image.id}
                  image={{ id: image.id, style: image.style }}
                  defaults={launchDefaultsFor({ ...image, price: startPrice, ...tiers })}
                  platforms={platforms}
                  onDone={() => navigate(dashboardUrl({ step: "upload" }))}
                />
              ) : (
                <ListForSaleForm
                  key={image.id}
                  image={{ id: image.id, style: image.style, price: startPrice, ...tiers }}
                  platforms={platforms}
                />
              )}
            </div>
          ) : null}
          <p className="mt-6 text-sm text-slate-600">
            Done with this one?{" "}
            <Link
              to={atPipeline(dashboardUrl({ step: "upload" }))}
              className="font-medium text-brand-700 hover:underline"
            >
              Start over with a new selfie
            </Link>
          </p>
        </div>
      </div>
    </section>
  );
}
