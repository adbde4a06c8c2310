/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/*.server.test.{ts,tsx}", "**/*.server.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  serverDependenciesToBundle: [/^remix-auth/, /^@conform-to\//],
  postcss: true,
  tailwind: false,
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
  },
};
