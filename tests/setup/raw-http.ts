import http from "node:http";

/** A whole answer to a request sent with `sendRaw`. */
export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** Whether the request went out on a socket the agent kept alive from an earlier one. */
  reusedSocket: boolean;
}

export interface RawRequest {
  method?: string;
  /** Sent as written: no client normalizes it. */
  path: string;
  headers?: Record<string, string>;
  /** A Buffer, or a generator of chunks sent chunked (and no longer once the server has closed the request). */
  body?: Buffer | (() => Iterable<Buffer>);
}

/**
 * One request to a real server over a real socket (`agent`: a kept-alive
 * client, or undefined for Node's default), resolving with the whole answer
 * (GET unless `options.method` says otherwise).
 */
export function sendRaw(
  to: { host: string; port: number | string },
  agent: http.Agent | undefined,
  options: RawRequest,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: to.host,
        port: to.port,
        agent,
        method: options.method ?? "GET",
        path: options.path,
        headers: options.headers,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
            reusedSocket: req.reusedSocket,
          }),
        );
        res.on("error", reject);
      },
    );
    // Writes after an early answer may fail once the server closes: the answer is what counts.
    req.on("error", reject);
    const body = options.body;
    if (Buffer.isBuffer(body)) return void req.end(body);
    if (!body) return void req.end();
    const chunks = body()[Symbol.iterator]();
    const pump = () => {
      for (;;) {
        if (req.destroyed) return;
        const next = chunks.next();
        if (next.done) return void req.end();
        if (!req.write(next.value)) return void req.once("drain", pump);
      }
    };
    pump();
  });
}
