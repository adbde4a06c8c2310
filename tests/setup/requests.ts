import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs } from "@remix-run/node";
import { testTies } from "#tests/setup/ties";

export const ORIGIN = "http://localhost:3000";

export interface RequestOptions {
  method?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  token?: string;
  cookie?: string;
  /** Send Origin as this site (default for mutations), another site, or not at all. */
  origin?: "same" | "cross" | "none";
}

/** A real Request as the browser or a token client would send it. */
export function makeRequest(pathname: string, options: RequestOptions = {}): Request {
  const method =
    options.method ?? (options.json !== undefined || options.body !== undefined ? "POST" : "GET");
  const headers = new Headers(options.headers);
  if (options.token) headers.set("Authorization", `Bearer ${options.token}`);
  if (options.cookie) headers.set("Cookie", options.cookie);
  const origin = options.origin ?? (method === "GET" ? "none" : "same");
  if (origin === "same") headers.set("Origin", ORIGIN);
  if (origin === "cross") headers.set("Origin", "https://evil.example");
  let body = options.body;
  if (options.json !== undefined) {
    body = typeof options.json === "string" ? options.json : JSON.stringify(options.json);
    if (!headers.has("Content-Type")) headers.set("Content-Type", "application/json");
  }
  return new Request(new URL(pathname, ORIGIN), { method, headers, body });
}

/** A form post, as a browser without JavaScript sends it (`fields` may repeat a name as URLSearchParams). */
export function formRequest(
  pathname: string,
  fields: Record<string, string> | URLSearchParams,
  options: RequestOptions = {},
) {
  const form = new URLSearchParams(fields);
  return makeRequest(pathname, {
    ...options,
    method: "POST",
    body: form.toString(),
    headers: { "Content-Type": "application/x-www-form-urlencoded", ...options.headers },
  });
}

type Handler = (args: LoaderFunctionArgs & ActionFunctionArgs) => unknown;

/** Calls a route's loader or action the way Remix does; thrown Responses are returned. */
export async function callRoute(
  handler: Handler,
  request: Request,
  params: Record<string, string> = {},
  context: AppLoadContext = { clientIp: "203.0.113.7", nonce: "test", ties: testTies },
): Promise<Response> {
  try {
    const result = await handler({ request, params, context });
    if (result instanceof Response) return result;
    return Response.json(result);
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** The cookies a response sets, as a Cookie header for the next request. */
export function cookiesFrom(response: Response, previous = ""): string {
  const jar = new Map(
    previous
      .split(/;\s*/)
      .filter(Boolean)
      .map((pair) => [pair.split("=")[0], pair] as const),
  );
  for (const line of response.headers.getSetCookie()) {
    const pair = line.split(";")[0];
    const [name, value] = [pair.slice(0, pair.indexOf("=")), pair.slice(pair.indexOf("=") + 1)];
    if (value === "" || /max-age=0/i.test(line) || /expires=Thu, 01 Jan 1970/i.test(line))
      jar.delete(name);
    else jar.set(name, pair);
  }
  return [...jar.values()].join("; ");
}
