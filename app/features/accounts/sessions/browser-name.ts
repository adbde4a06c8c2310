/**
 * A short, readable name for the browser or client behind a User-Agent
 * header, for the sessions list: "Chrome on Linux", "Safari on iOS", "curl".
 * Only the common browsers and systems are named; any other client is named
 * by the first product of its header ("MyApp/1.2 (…)" is "MyApp").
 */

const BROWSERS: [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  [/\b(HeadlessChrome|Chrome|CriOS|Chromium)\//, "Chrome"],
  [/\bVersion\/[\d.]+.*\bSafari\//, "Safari"],
  [/\bAppleWebKit\/.*\b(iPhone|iPad|iPod)\b|\b(iPhone|iPad|iPod)\b.*\bAppleWebKit\//, "Safari"],
  [/^curl\//, "curl"],
  [/^Wget\//, "Wget"],
  [/^python-requests\/|^Python-urllib\/|^python-httpx\//, "Python"],
  [/^PostmanRuntime\//, "Postman"],
  [/^node(-fetch)?\b|^undici\b/, "Node.js"],
];

const SYSTEMS: [RegExp, string][] = [
  [/\bWindows\b/, "Windows"],
  [/\bAndroid\b/, "Android"],
  [/\b(iPhone|iPad|iPod)\b/, "iOS"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\b(Macintosh|Mac OS X)\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
];

export const UNKNOWN_BROWSER = "Unknown browser";

export function browserName(userAgent: string | null | undefined): string {
  const header = (userAgent ?? "").trim();
  if (header === "") return UNKNOWN_BROWSER;
  const browser = BROWSERS.find(([pattern]) => pattern.test(header))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(header))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  if (browser) return browser;
  const product = /^([A-Za-z][\w.-]{0,40})\//.exec(header)?.[1];
  if (product && product !== "Mozilla") return system ? `${product} on ${system}` : product;
  return system ? `A browser on ${system}` : UNKNOWN_BROWSER;
}
