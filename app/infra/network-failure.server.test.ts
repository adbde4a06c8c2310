import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { networkFailureReason } from "~/infra/network-failure.server";

/** The error the real fetch throws for a request to `url`. */
async function fetchError(url: string, init?: RequestInit): Promise<unknown> {
  try {
    await fetch(url, init);
  } catch (error) {
    return error;
  }
  throw new Error("the request was answered");
}

describe("networkFailureReason", () => {
  it("says a closed port refused the connection (where fetch says only 'fetch failed')", async () => {
    const server = http.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    await new Promise((resolve) => server.close(resolve));
    const error = await fetchError(`http://127.0.0.1:${port}/`);
    expect((error as Error).message).toBe("fetch failed");
    expect(networkFailureReason(error)).toBe("it refused the connection");
  });

  it("says a server that never answers did not answer in time", async () => {
    const server = http.createServer(() => undefined);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const error = await fetchError(`http://127.0.0.1:${port}/`, {
        signal: AbortSignal.timeout(100),
      });
      expect(networkFailureReason(error)).toBe("it did not answer in time");
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("names an unknown host, and falls back to a plain sentence", () => {
    expect(
      networkFailureReason(
        Object.assign(new TypeError("fetch failed"), {
          cause: Object.assign(new Error("getaddrinfo ENOTFOUND x"), { code: "ENOTFOUND" }),
        }),
      ),
    ).toBe("its address could not be found");
    expect(networkFailureReason(new TypeError("fetch failed"))).toBe(
      "the network failed on the way",
    );
  });
});
