#!/usr/bin/env node
// The browser tests use the system Chromium (Debian's `chromium` package);
// they never download a browser. Fail loudly, with the fix, when none is found.
import fs from "node:fs";

const candidates = [
  process.env.CHROMIUM_PATH,
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
].filter(Boolean);
const found = candidates.find((candidate) => fs.existsSync(candidate));
if (!found) {
  console.error(
    [
      "No Chromium found for the browser tests (looked at: " + candidates.join(", ") + ").",
      "Install it with:  sudo apt-get install -y chromium",
      "or point CHROMIUM_PATH at a Chromium or Chrome binary.",
    ].join("\n"),
  );
  process.exit(1);
}
console.log(`Browser tests will use ${found}`);
