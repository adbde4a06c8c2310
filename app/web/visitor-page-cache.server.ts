import type { AppLoadContext } from "@remix-run/node";
import { countPageCache, setPageCacheBytes } from "~/infra/metrics.server";
import type { HandleRequest } from "./remix-handler.server";
import { nobodySignedIn, reportingRender } from "./render-report.server";
import { carriesAppCookie } from "./request-cookies.server";

declare module "@remix-run/node" {
  interface AppLoadContext {
    /**
     * What a page's render did that must happen again when the page is served
     * from the visitors' cache (set by the route; see `PageNotes`).
     */
    pageNotes?: PageNotes;
  }
}

/** Side effects of a render that a cached copy must repeat for each visitor it serves. */
export interface PageNotes {
  /** The listings the page showed, for the creators' view counts. */
  shownListings?: string[];
}

/**
 * What the cache reads of a request: the address asked for and its headers. A
 * hit is served from Node's request before any fetch Request is made of it
 * (cached-page-front.server.ts), so nothing here needs one.
 */
export interface PageVisit {
  url: URL;
  header(name: string): string | null;
}

/** The visit of a fetch Request. */
export function visitOfRequest(request: Request): PageVisit {
  return { url: new URL(request.url), header: (name) => request.headers.get(name) };
}

/** Called on each cache hit with the notes of the render that made the copy. */
export type ReplayNotes = (
  notes: PageNotes,
  visit: PageVisit,
  context: AppLoadContext,
) => Promise<void>;

/**
 * A cache hit's answer: the copy's status and headers (`X-Page-Cache: hit`
 * among them) and its bytes with this response's nonce (none for HEAD), as the
 * pieces the body is made of in order: the page's parts with the nonce between
 * them, written one after another rather than copied into one buffer first.
 */
export interface CachedAnswer {
  status: number;
  headers: [string, string][];
  body: readonly Buffer[] | null;
}

/** A fresh copy found for a visitor's request, answered once the response's context exists. */
export interface CacheHit {
  /** The copy's answer for this visit (what the render did for its visitor replayed, the hit counted). */
  answer(visit: PageVisit, context: AppLoadContext): Promise<CachedAnswer>;
}

/** The cache: a request handler in front of Remix, and the hit path the HTTP front serves first. */
export interface VisitorPageCache extends HandleRequest {
  /**
   * The hit for a visitor's GET or HEAD when a fresh copy answers it, or null,
   * decided at once and with no side effect: the request then goes on to the
   * handler. Only the path, the query and the request's headers are read.
   */
  findHit(method: string, visit: PageVisit): CacheHit | null;
  clear(): void;
  readonly size: number;
  /** The bytes its copies hold (their pages and headers). */
  readonly bytes: number;
}

export interface VisitorPageCacheOptions {
  /** How long a copy is served, in ms (0 turns the cache off). */
  ttlMs: number;
  /**
   * The pages served from the cache, each with the query parameters it may
   * carry: exact paths, or a path ending in `/*` for one more segment.
   */
  pages: Readonly<Record<string, readonly string[]>>;
  /**
   * Public JSON answers (exact paths) served from the cache by the same rules,
   * each with the query parameters it may carry. Their `Cache-Control:
   * no-store`, what the API tells its clients, does not keep them out.
   */
  answers?: Readonly<Record<string, readonly string[]>>;
  replay?: ReplayNotes;
  /** Copies kept at most (distinct URLs); the oldest go first. */
  maxEntries?: number;
  /** A page larger than this is never kept. */
  maxBodyBytes?: number;
  /** The bytes all copies may hold together (pages and headers); the oldest go first. */
  maxBytes?: number;
  now?: () => number;
}

interface Copy {
  expires: number;
  status: number;
  headers: [string, string][];
  /**
   * The page's bytes cut where the CSP nonce it was rendered with stood, so a
   * response is these parts joined by its own nonce. Bytes, not a string: a
   * fetch Response made from a string re-checks every character of it, which
   * cost more than the rest of serving a 100 KB marketplace page.
   */
  parts: Buffer[];
  notes: PageNotes;
  /** What the copy holds: its page's bytes and its headers' characters. */
  size: number;
}

/** What the copies may hold together when `maxBytes` is not given: 32 MiB. */
export const DEFAULT_MAX_BYTES = 32 * 1024 * 1024;

/** Says whether a cacheable page came from a copy (`hit`) or was rendered and kept (`miss`), as caching proxies do. */
export const CACHE_STATUS_HEADER = "X-Page-Cache";

/**
 * A very short-lived cache of the public pages' HTML, for visitors only.
 *
 * A copy is made from a plain visitor's request (no cookie of the app's, as
 * the app's own cookie parser reads the Cookie header; no Authorization
 * header; no query parameter the page does not list), only from a 200 HTML
 * answer that sets no cookie, and only when the render itself reports that it
 * looked for a session and found none, and found no cart or flash message
 * (render-report.server.ts): the request's look and the render's own reading
 * must both say "visitor", so it never holds anything personal: no user, no
 * cart, no flash message, no payment return. It is
 * served only to requests that could have made it, for `ttlMs`, per URL (path
 * and listed parameters, in order). Each response gets its own CSP nonce (the
 * copy's is replaced), and what the render did for its visitor (say, counting
 * the listings shown as viewed) is replayed for every visitor served. Any
 * request that may change data (not GET or HEAD) empties the cache, so this
 * process never serves a page older than its last change; what the job
 * worker changes shows within `ttlMs`. Concurrent misses of one URL wait for a
 * single render. Public JSON answers (`answers`, such as GET /api/marketplace)
 * are kept by the same rules, so an anonymous caller's page of listings costs
 * what a cached page does rather than Remix's routing, a query and JSON.
 */
export function visitorPageCache(handle: HandleRequest, options: VisitorPageCacheOptions) {
  const now = options.now ?? Date.now;
  const maxEntries = options.maxEntries ?? 500;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxBodyBytes = Math.min(options.maxBodyBytes ?? 1024 * 1024, maxBytes);
  const answers = options.answers ?? {};
  const cached = { ...options.pages, ...answers };
  const copies = new Map<string, Copy>();
  const rendering = new Map<string, Promise<Copy | null>>();
  let bytesHeld = 0;

  const drop = (key: string) => {
    const copy = copies.get(key);
    if (!copy) return;
    copies.delete(key);
    bytesHeld -= copy.size;
  };
  const clear = () => {
    copies.clear();
    bytesHeld = 0;
    setPageCacheBytes(0);
  };
  const full = (adding: Copy) => copies.size >= maxEntries || bytesHeld + adding.size > maxBytes;

  const store = (key: string, copy: Copy) => {
    drop(key);
    if (full(copy)) {
      const at = now();
      for (const [k, c] of copies) if (c.expires <= at) drop(k);
      while (copies.size > 0 && full(copy)) drop(copies.keys().next().value as string);
    }
    copies.set(key, copy);
    bytesHeld += copy.size;
    setPageCacheBytes(bytesHeld);
  };

  const answer = async (
    copy: Copy,
    method: string,
    visit: PageVisit,
    context: AppLoadContext,
  ): Promise<CachedAnswer> => {
    if (options.replay && Object.keys(copy.notes).length > 0)
      await options.replay(copy.notes, visit, context);
    countPageCache("hit");
    return {
      status: copy.status,
      headers: [...copy.headers, [CACHE_STATUS_HEADER, "hit"]],
      body: method === "HEAD" ? null : joinedBy(copy.parts, context.nonce ?? ""),
    };
  };

  const serve = async (
    copy: Copy,
    request: Request,
    context: AppLoadContext,
  ): Promise<Response> => {
    const hit = await answer(copy, request.method, visitOfRequest(request), context);
    return new Response(hit.body && asBody(Buffer.concat(hit.body)), {
      status: hit.status,
      headers: new Headers(hit.headers),
    });
  };

  const freshCopy = (key: string | null): Copy | null => {
    if (key === null) return null;
    const copy = copies.get(key);
    return copy && copy.expires > now() ? copy : null;
  };

  const findHit = (method: string, visit: PageVisit): CacheHit | null => {
    if ((method !== "GET" && method !== "HEAD") || options.ttlMs <= 0) return null;
    const copy = freshCopy(cacheKeyOf(visit, cached));
    return copy && { answer: (answered, context) => answer(copy, method, answered, context) };
  };

  const handler: HandleRequest = async (request, context) => {
    if (request.method !== "GET" && request.method !== "HEAD") {
      clear();
      return handle(request, context);
    }
    const key = options.ttlMs > 0 ? cacheKey(request, cached) : null;
    if (key === null) return handle(request, context);
    const isAnswer = Object.hasOwn(answers, new URL(request.url).pathname);

    const copy = freshCopy(key);
    if (copy) return serve(copy, request, context);
    const pending = rendering.get(key);
    if (pending) {
      const made = await pending;
      if (made) return serve(made, request, context);
      return handle(request, context);
    }
    if (request.method === "HEAD") return handle(request, context);

    let settle: (copy: Copy | null) => void = () => {};
    rendering.set(key, new Promise((resolve) => (settle = resolve)));
    try {
      context.pageNotes = {};
      const { result: response, report } = await reportingRender(() => handle(request, context));
      if (!(isAnswer ? keepableAnswer(response) : keepable(response)) || !nobodySignedIn(report)) {
        settle(null);
        return response;
      }
      const bytes = Buffer.from(await response.arrayBuffer());
      const headers: [string, string][] = [...response.headers.entries()];
      const made: Copy = {
        expires: now() + options.ttlMs,
        status: response.status,
        headers,
        parts: splitAt(bytes, context.nonce ?? ""),
        notes: context.pageNotes,
        size: bytes.byteLength + headers.reduce((sum, [n, v]) => sum + n.length + v.length, 0),
      };
      if (bytes.byteLength <= maxBodyBytes && made.size <= maxBytes) store(key, made);
      settle(made);
      const answered = new Headers(response.headers);
      answered.set(CACHE_STATUS_HEADER, "miss");
      countPageCache("miss");
      return new Response(asBody(bytes), { status: response.status, headers: answered });
    } catch (error) {
      settle(null);
      throw error;
    } finally {
      rendering.delete(key);
    }
  };
  return Object.defineProperties(handler as VisitorPageCache, {
    findHit: { value: findHit },
    clear: { value: clear },
    size: { get: () => copies.size },
    bytes: { get: () => bytesHeld },
  });
}

/** The cache key of a visitor's request for a cached page, or null when the request must be rendered. */
export function cacheKey(
  request: Request,
  pages: Readonly<Record<string, readonly string[]>>,
): string | null {
  return cacheKeyOf(visitOfRequest(request), pages);
}

function cacheKeyOf(
  visit: PageVisit,
  pages: Readonly<Record<string, readonly string[]>>,
): string | null {
  const { url } = visit;
  const allowed = Object.hasOwn(pages, url.pathname)
    ? pages[url.pathname]
    : pageOfPattern(url.pathname, pages);
  if (!allowed) return null;
  if (visit.header("Authorization") !== null) return null;
  if (carriesAppCookie(visit.header("Cookie"))) return null;
  for (const name of url.searchParams.keys()) if (!allowed.includes(name)) return null;
  return url.pathname + url.search;
}

/**
 * The parameters of a page named by a pattern: `/marketplace/*` stands for
 * `/marketplace/<one segment>` (a listing's page), never for a deeper path.
 */
function pageOfPattern(
  pathname: string,
  pages: Readonly<Record<string, readonly string[]>>,
): readonly string[] | undefined {
  const cut = pathname.lastIndexOf("/");
  if (cut <= 0 || cut === pathname.length - 1) return undefined;
  const pattern = `${pathname.slice(0, cut)}/*`;
  return Object.hasOwn(pages, pattern) ? pages[pattern] : undefined;
}

/** Only a plain, complete HTML page that sets nothing for its visitor is kept. */
function keepable(response: Response): boolean {
  if (response.status !== 200 || !response.body) return false;
  if (!/^text\/html/i.test(response.headers.get("Content-Type") ?? "")) return false;
  if (response.headers.has("Set-Cookie")) return false;
  return !/no-store/i.test(response.headers.get("Cache-Control") ?? "");
}

/** Only a plain, complete JSON answer that sets nothing for its caller is kept. */
function keepableAnswer(response: Response): boolean {
  if (response.status !== 200 || !response.body) return false;
  if (!/^application\/json/i.test(response.headers.get("Content-Type") ?? "")) return false;
  return !response.headers.has("Set-Cookie");
}

/** The bytes cut at every occurrence of `separator` (none when it is empty). */
function splitAt(bytes: Buffer, separator: string): Buffer[] {
  if (!separator) return [bytes];
  const needle = Buffer.from(separator);
  const parts: Buffer[] = [];
  let from = 0;
  for (let at = bytes.indexOf(needle, from); at !== -1; at = bytes.indexOf(needle, from)) {
    parts.push(bytes.subarray(from, at));
    from = at + needle.byteLength;
  }
  parts.push(bytes.subarray(from));
  return parts;
}

/** The parts with `separator` between them: the pieces of the page with this response's nonce. */
function joinedBy(parts: readonly Buffer[], separator: string): readonly Buffer[] {
  if (parts.length === 1) return parts;
  const glue = Buffer.from(separator);
  const pieces: Buffer[] = [parts[0]];
  for (let index = 1; index < parts.length; index++) pieces.push(glue, parts[index]);
  return pieces;
}

/** A Buffer is a Uint8Array, a valid fetch body, though the DOM and Node typings disagree on its buffer type. */
function asBody(bytes: Buffer): BodyInit {
  return bytes as unknown as BodyInit;
}
