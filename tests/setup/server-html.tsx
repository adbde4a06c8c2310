import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import type { RouteObject } from "react-router-dom";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
} from "react-router-dom/server";

export interface ServerHtmlOptions {
  /** Drop React's `<!-- -->` markers between adjacent text pieces. */
  withoutTextMarkers?: boolean;
}

/**
 * Renders an element at a URL (path and query) the way the server does: one
 * route at the URL's path in a static router, no effects run. Answers the HTML
 * a browser without JavaScript gets.
 */
export async function serverHtml(
  element: ReactNode,
  url: string,
  options: ServerHtmlOptions = {},
): Promise<string> {
  return serverRouteHtml(
    { path: new URL(url, "http://localhost").pathname, element },
    url,
    options,
  );
}

/** `serverHtml` for a route of its own (a path with params, a loader), rendered at `url`. */
export async function serverRouteHtml(
  route: RouteObject,
  url: string,
  { withoutTextMarkers = false }: ServerHtmlOptions = {},
): Promise<string> {
  const handler = createStaticHandler([route]);
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error("unexpected redirect");
  const html = renderToString(
    <StaticRouterProvider
      router={createStaticRouter(handler.dataRoutes, context)}
      context={context}
    />,
  );
  return withoutTextMarkers ? html.replaceAll("<!-- -->", "") : html;
}
