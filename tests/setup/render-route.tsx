import type { ReactElement } from "react";
import { createRemixStub } from "@remix-run/testing";
import { render } from "@testing-library/react";

/** The routes `createRemixStub` takes. */
export type StubRoutes = Parameters<typeof createRemixStub>[0];
type StubRoute = StubRoutes[number];

export interface RenderWithRemixOptions {
  /** The URL the stub router starts at (path and query). */
  url: string;
  /** When `ui` is an element: the route path it is rendered at (default: the URL's path). */
  path?: string;
  /** When `ui` is an element: the route's action (forms posting to it). */
  action?: StubRoute["action"];
  /** When `ui` is an element: the route's loader. */
  loader?: StubRoute["loader"];
}

/**
 * Renders a component inside Remix's test router, at `url`: either one element
 * at one route (with an optional action or loader) or the routes given as they
 * are. Answers Testing Library's render result.
 */
export function renderWithRemix(ui: ReactElement | StubRoutes, options: RenderWithRemixOptions) {
  const routes: StubRoutes = Array.isArray(ui)
    ? ui
    : [
        {
          path: options.path ?? new URL(options.url, "http://localhost").pathname,
          action: options.action,
          loader: options.loader,
          Component: () => ui,
        },
      ];
  const Stub = createRemixStub(routes);
  return render(<Stub initialEntries={[options.url]} />);
}
