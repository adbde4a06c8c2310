import fs from "node:fs";
import path from "node:path";

/** The text of a client stylesheet the build wrote (by its URL, `/build/_assets/…`), or null when it cannot be read. */
export type ReadStylesheet = (href: string) => string | null;

/**
 * The reader of the build's stylesheets under `publicDir`, for the page to
 * carry its stylesheet inline (app/ui/stylesheet.tsx) rather than make the
 * browser fetch it before its first paint. Only fingerprinted files under
 * `/build/` are read (their text never changes under one name), once each.
 */
export function stylesheetReader(publicDir: string): ReadStylesheet {
  const read = new Map<string, string | null>();
  const buildDir = path.join(publicDir, "build");
  return (href) => {
    const known = read.get(href);
    if (known !== undefined) return known;
    const file = path.join(publicDir, href);
    const text =
      href.startsWith("/build/") && href.endsWith(".css") && file.startsWith(buildDir + path.sep)
        ? readOrNull(file)
        : null;
    read.set(href, text);
    return text;
  };
}

function readOrNull(file: string): string | null {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return null;
  }
}
