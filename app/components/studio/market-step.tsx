import { Link } from "@remix-run/react";
import { dashboardUrl } from "~/lib/dashboard-url";
import type { StylizedImageJson } from "~/lib/studio-types";
import { styleName } from "~/lib/styles";
import { StudioImage } from "./studio-image";

/**
 * Step 4, Market: the image that goes to market and the ways to market it.
 * Launch marketing and list for sale arrive with the publishing work; until
 * then their panels say so plainly.
 */
export function MarketStep({ image, panel }: { image: StylizedImageJson; panel: "launch" | "sell" | null }) {
  return (
    <section aria-labelledby="market-heading" className="card p-6" data-testid="market-step">
      <div className="flex flex-col gap-6 lg:flex-row">
        <StudioImage
          src={image.optimizedUrl ?? image.styledUrl}
          fallbackSrc={image.originalUrl}
          alt={`Your ${styleName(image.style)} image`}
          className="aspect-square w-full rounded-xl object-cover lg:w-64"
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
            <Link to={dashboardUrl({ styled: image.id, step: "market", panel: "launch" })} className="btn-primary">
              Launch Marketing
            </Link>
            <Link to={dashboardUrl({ styled: image.id, step: "market", panel: "sell" })} className="btn-secondary">
              List for Sale
            </Link>
            <Link to={dashboardUrl({ styled: image.id, step: "optimize" })} className="btn-ghost">
              Back to Optimize
            </Link>
          </div>
          {panel ? (
            <div className="mt-4 rounded-lg border border-slate-200 bg-slate-50 p-4 text-sm text-slate-700" data-testid="market-panel">
              {panel === "launch"
                ? "Marketing launches are coming with publishing: this is where you will set a title, price, tags and platforms."
                : "Listing for sale is coming with publishing: this is where you will pick connected platforms and a price."}
            </div>
          ) : null}
          <p className="mt-6 text-sm text-slate-600">
            Done with this one?{" "}
            <Link to={dashboardUrl({ step: "upload" })} className="font-medium text-brand-700 hover:underline">
              Start over with a new selfie
            </Link>
          </p>
        </div>
      </div>
    </section>
  );
}
