import fs from "node:fs";
import path from "node:path";
import { startS3Server } from "../../tests/setup/s3-server";
import type { RunningServer } from "../../tests/process/support/server-process";
import { row, type BenchRow } from "./measure";
import { startBenchServer } from "./server-bench";

/**
 * The marketplace page as a visitor loads it, images included, with the
 * images served two ways: by the web process itself (the local file store,
 * `/media/...`, today's default) and by an S3-compatible store at its public
 * address (s3rver here, standing in for the bucket behind a CDN). Ten visitors
 * at once each load the page and then every image it shows, again and again.
 *
 * Printed: page views per second (page and images), the page alone at 10
 * connections, and the web process's CPU time per page view (read from
 * /proc, so only that process counts: the store's own work is not the web
 * process's). The store's figure is compared with the local store's.
 */
export async function benchMediaStore(
  scratch: string,
  port: number,
  seconds = 5,
): Promise<BenchRow[]> {
  const local = await measure(scratch, "media-local", port, seconds, {});
  const s3 = await startS3Server({ port: port + 10, directory: path.join(scratch, "media-s3") });
  let remote: Measured;
  try {
    remote = await measure(scratch, "media-s3", port, seconds, s3.env);
  } finally {
    await s3.close();
  }
  const tag = `c=${VISITORS}, ${local.imagesPerView} images a view`;
  return [
    row({
      name: `marketplace page views with images from the store's public URL (${tag}): views/s`,
      value: remote.viewsPerSecond,
      baseline: local.viewsPerSecond,
      unit: "views/s",
      limit: null,
      limitOf: "ratio",
      atLeast: true,
      against: "images through the web process (local store)",
    }),
    row({
      name: `marketplace page alone with the object store (c=${VISITORS}): req/s`,
      value: remote.pagesPerSecond,
      baseline: local.pagesPerSecond,
      unit: "req/s",
      limit: null,
      limitOf: "ratio",
      atLeast: true,
      against: "the same with the local store",
    }),
    row({
      name: `web process CPU per page view, images from the store (${tag})`,
      value: remote.cpuMsPerView,
      baseline: local.cpuMsPerView,
      unit: "ms",
      limit: null,
      limitOf: "ratio",
      against: "images through the web process (local store)",
    }),
  ];
}

const VISITORS = 10;

interface Measured {
  viewsPerSecond: number;
  pagesPerSecond: number;
  cpuMsPerView: number;
  imagesPerView: number;
}

async function measure(
  scratch: string,
  name: string,
  port: number,
  seconds: number,
  env: Record<string, string>,
): Promise<Measured> {
  const server = await startBenchServer({
    dataDir: path.join(scratch, name),
    port,
    seed: true,
    env,
  });
  try {
    const page = await server.fetch("/marketplace");
    const images = imageAddresses(await page.text(), server.origin);
    if (images.length === 0) throw new Error("The marketplace page shows no image");
    const expectedHost = env.FILES_PUBLIC_BASE_URL
      ? new URL(env.FILES_PUBLIC_BASE_URL).host
      : new URL(server.origin).host;
    const elsewhere = images.filter((image) => new URL(image).host !== expectedHost);
    if (elsewhere.length > 0)
      throw new Error(`Images not where this store serves them: ${elsewhere.join(", ")}`);
    // Warm-up: the page cache and every image once.
    for (let i = 0; i < 3; i++) await view(server, images);

    const pagesPerSecond = await pagesAlone(server, seconds);
    const cpuBefore = cpuMs(server.pid);
    const views = await visitors(server, images, seconds);
    const cpu = cpuMs(server.pid) - cpuBefore;
    return {
      viewsPerSecond: views / seconds,
      pagesPerSecond,
      cpuMsPerView: cpu / views,
      imagesPerView: images.length,
    };
  } finally {
    await server.stop();
  }
}

/** The images a browser would load for the page: every <img src> (and the first of each srcset). */
function imageAddresses(html: string, origin: string): string[] {
  const found = new Set<string>();
  for (const match of html.matchAll(/<img\b[^>]*?\ssrc="([^"]+)"/g))
    found.add(new URL(match[1]!.replaceAll("&amp;", "&"), origin).href);
  return [...found];
}

async function view(server: RunningServer, images: string[]): Promise<void> {
  await (await server.fetch("/marketplace")).arrayBuffer();
  for (const image of images) {
    const response = await fetch(image);
    if (!response.ok) throw new Error(`${image} answered ${response.status}`);
    await response.arrayBuffer();
  }
}

/** Page views completed by VISITORS visitors in `seconds`. */
async function visitors(server: RunningServer, images: string[], seconds: number) {
  const until = performance.now() + seconds * 1000;
  let views = 0;
  await Promise.all(
    Array.from({ length: VISITORS }, async () => {
      while (performance.now() < until) {
        await view(server, images);
        views++;
      }
    }),
  );
  return views;
}

async function pagesAlone(server: RunningServer, seconds: number): Promise<number> {
  const until = performance.now() + seconds * 1000;
  let pages = 0;
  await Promise.all(
    Array.from({ length: VISITORS }, async () => {
      while (performance.now() < until) {
        await (await server.fetch("/marketplace")).arrayBuffer();
        pages++;
      }
    }),
  );
  return pages / seconds;
}

/** User and system CPU time of a process so far, in ms (Linux /proc). */
function cpuMs(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const ticks = Number(fields[11]) + Number(fields[12]); // utime, stime
  return (ticks * 1000) / 100; // USER_HZ is 100 on Linux
}
