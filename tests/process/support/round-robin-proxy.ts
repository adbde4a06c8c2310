import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A small load balancer for the process tests: every request goes to the next
 * upstream in turn (round robin), its body and answer streamed through
 * unchanged, as a platform's proxy in front of several web machines does. An
 * upstream that refuses the connection is skipped for that request (the next
 * one is tried, for a request without a body), as a balancer's health check
 * would take it out of rotation.
 * `servedBy` counts which upstream answered how many requests.
 */
export interface RoundRobinProxy {
  origin: string;
  port: number;
  servedBy: Map<string, number>;
  close: () => Promise<void>;
}

export async function startRoundRobinProxy(
  upstreams: string[],
  port = 0,
): Promise<RoundRobinProxy> {
  let next = 0;
  const servedBy = new Map<string, number>();
  const server = http.createServer((request, response) => {
    // Only a request without a body (GET, HEAD) is retried on another upstream.
    const retryable = request.method === "GET" || request.method === "HEAD";
    const tryUpstream = (attempt: number) => {
      const upstream = new URL(upstreams[(next + attempt) % upstreams.length]!);
      const outgoing = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
        },
        (answer) => {
          servedBy.set(upstream.origin, (servedBy.get(upstream.origin) ?? 0) + 1);
          response.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
          answer.pipe(response);
        },
      );
      outgoing.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code === "ECONNREFUSED" && attempt + 1 < upstreams.length && retryable) {
          tryUpstream(attempt + 1);
          return;
        }
        if (!response.headersSent) response.writeHead(502, { "Content-Type": "text/plain" });
        response.end("Bad gateway");
      });
      if (retryable && attempt > 0) outgoing.end();
      else request.pipe(outgoing);
    };
    next = (next + 1) % upstreams.length;
    tryUpstream(0);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  const actual = (server.address() as AddressInfo).port;
  return {
    origin: `http://localhost:${actual}`,
    port: actual,
    servedBy,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
