import { flatRoutes } from "remix-flat-routes";

// Route files live in "+" folders grouped by area (app/routes/_studio+/dashboard.tsx
// serves /dashboard; a leading "_" adds no URL segment). Files ending in .server.ts
// beside a route are its helpers, and tests sit beside what they test: neither is a route.
const notRoutes = ["**/.*", "**/*.test.{ts,tsx}", "**/*.server.{ts,tsx}"];

/** @type {import('@remix-run/dev').AppConfig} */
export default {
  // Every route comes from flatRoutes below; Remix's own convention reads nothing.
  ignoredRouteFiles: ["**/*"],
  routes: async (defineRoutes) =>
    flatRoutes("routes", defineRoutes, { ignoredRouteFiles: notRoutes }),
  serverModuleFormat: "esm",
  serverPlatform: "node",
  serverDependenciesToBundle: [/^remix-auth/, /^@conform-to\//],
  postcss: true,
  tailwind: false,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Declined, not forgotten (docs/decisions/053): both change behaviour the app does not have today.
    // Lazy discovery fetches route modules' manifest from /__manifest as links render, a request the
    // HTTP edge, the visitors' page cache and the browser suites have never seen; single fetch
    // re-encodes every loader and action answer (turbo-stream) and changes how headers and json() work.
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: false,
  },
};
