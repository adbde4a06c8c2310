// Shared set-up of the publishing components' tests (not part of the app).
import { screen } from "@testing-library/react";
import type { ActionFunction } from "@remix-run/node";
import type { ComponentProps, ReactNode } from "react";
import { renderWithRemix } from "#tests/setup/render-route";
import { ToastProvider } from "~/ui/toaster";
import { IntegrationCard } from "~/features/publishing/integrations/components/integration-card";
import type { PublicationView } from "~/features/publishing/components/types";
import type { PlatformId } from "~/features/publishing/platforms";
import { getPlatform } from "~/features/publishing/platforms";

/** `node` on the page at "/" (with the toasts), and a route answering each of `actions`' paths. */
export function renderAt(node: ReactNode, actions: Record<string, ActionFunction> = {}) {
  return renderWithRemix(
    [
      { path: "/", Component: () => <ToastProvider flash={null}>{node}</ToastProvider> },
      ...Object.entries(actions).map(([path, action]) => ({ path, action, Component: () => null })),
    ],
    { url: "/" },
  );
}

/**
 * The card of `platform`, not connected and without OAuth unless `props` say
 * otherwise; resolves to the card once it shows.
 */
export function renderIntegrationCard(
  platform: PlatformId,
  props: Partial<ComponentProps<typeof IntegrationCard>> = {},
) {
  renderAt(
    <IntegrationCard
      platform={getPlatform(platform)}
      isActive={false}
      integration={null}
      oauthAvailable={false}
      connectLink={null}
      {...props}
    />,
  );
  return screen.findByTestId(`integration-card-${platform}`);
}

/** A platform's row on the result screens: no icon, link, error, download or Connect link unless given. */
export function publicationRow(
  row: Pick<PublicationView, "id" | "name" | "status"> & Partial<PublicationView>,
): PublicationView {
  return { icon: "", url: null, error: null, downloadUrl: null, authUrl: null, ...row };
}
