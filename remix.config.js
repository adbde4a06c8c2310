/** @type {import('@remix-run/dev').AppConfig} */
export default {
  ignoredRouteFiles: ["**/.*", "**/*.test.{ts,tsx}", "**/*.server.test.{ts,tsx}"],
  serverModuleFormat: "esm",
  serverPlatform: "node",
  serverDependenciesToBundle: [/^remix-auth/, /^@conform-to\//],
  postcss: true,
  tailwind: false,
  future: {},
};
