import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { row, type BenchRow } from "./measure";

/**
 * The client JavaScript a first visit to a page downloads, gzipped: the entry,
 * the root route, the page's route module and every chunk they import, as the
 * Remix manifest in public/build lists them (the same modulepreload links the
 * document sends).
 */
interface ManifestEntry {
  module: string;
  imports?: string[];
}
interface Manifest {
  entry: ManifestEntry;
  routes: Record<string, ManifestEntry & { parentId?: string }>;
}

export const BUNDLE_LIMIT_KB = 150;

export function readManifest(root: string): Manifest {
  const dir = path.join(root, "public", "build");
  const file = fs.readdirSync(dir).find((name) => /^manifest-.*\.js$/.test(name));
  if (!file) throw new Error(`No Remix manifest in ${dir}: run npm run build first.`);
  const text = fs.readFileSync(path.join(dir, file), "utf8");
  return JSON.parse(text.slice(text.indexOf("{"), text.lastIndexOf("}") + 1)) as Manifest;
}

export function gzippedClientKb(root: string, manifest: Manifest, routeId: string): number {
  const route = manifest.routes[routeId];
  if (!route) throw new Error(`No route ${routeId} in the manifest`);
  const chain: Array<ManifestEntry & { parentId?: string }> = [];
  for (
    let current: (typeof chain)[number] | undefined = route;
    current;
    current = current.parentId ? manifest.routes[current.parentId] : undefined
  ) {
    chain.push(current);
  }
  const files = new Set<string>();
  for (const entry of [manifest.entry, ...chain]) {
    files.add(entry.module);
    for (const chunk of entry.imports ?? []) files.add(chunk);
  }
  let bytes = 0;
  for (const file of files)
    bytes += zlib.gzipSync(fs.readFileSync(path.join(root, "public", file)), { level: 9 }).length;
  return bytes / 1024;
}

/** Every public page, and the creator's dashboard. */
const PAGES: readonly [page: string, routeId: string][] = [
  ["/", "routes/_marketing+/_index"],
  ["/landing", "routes/_marketing+/landing"],
  ["/marketplace", "routes/_market+/marketplace"],
  ["/auth", "routes/_auth+/auth"],
  ["/training", "routes/_marketing+/training"],
  ["/licenses/{licenseId}", "routes/_market+/licenses.$licenseId"],
  ["/dashboard", "routes/_studio+/dashboard"],
];

export function benchClientBundles(root: string): BenchRow[] {
  const manifest = readManifest(root);
  return PAGES.map(([page, routeId]) =>
    row({
      name: `client JS for ${page} (gzip)`,
      value: gzippedClientKb(root, manifest, routeId),
      baseline: BUNDLE_LIMIT_KB,
      unit: "KB",
      limit: BUNDLE_LIMIT_KB,
      limitOf: "value",
      against: "the 150 KB budget",
    }),
  );
}
