import net from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectSftp } from "~/infra/sftp/sftp-client.server";
import { SftpError } from "~/infra/sftp/sftp-errors.server";
import { startSftpServer } from "#tests/setup/sftp-server";
import type { SftpTestServer } from "#tests/setup/sftp-server";
import { rejectionOf } from "#tests/setup/errors";

let server: SftpTestServer;
const USER = "208412345";
const PASSWORD = "generated-Sftp-Passw0rd";

beforeAll(async () => {
  server = await startSftpServer({ users: { [USER]: PASSWORD } });
});
afterAll(() => server.close());

const target = (overrides: Partial<Parameters<typeof connectSftp>[0]> = {}) => ({
  host: server.host,
  port: server.port,
  username: USER,
  password: PASSWORD,
  hostKey: null,
  timeoutMs: 5000,
  ...overrides,
});

/** The SftpError `promise` is refused with. */
const refusal = (promise: Promise<unknown>) => rejectionOf(promise, SftpError);

describe("SFTP client against a real SFTP server", () => {
  it("signs in, reports the host key, uploads, lists and overwrites a file of the same name", async () => {
    const session = await connectSftp(target());
    expect(session.hostKey).toBe(server.hostKeyFingerprint);
    await session.put("first.jpg", Buffer.from("one"));
    await session.put("first.jpg", Buffer.from("two, longer"));
    expect(await session.list()).toEqual(["first.jpg"]);
    session.close();
    expect(server.files()["/first.jpg"].toString()).toBe("two, longer");
    expect(server.writeOpens()["/first.jpg"]).toBe(2);
  });

  it("uploads a file larger than one SFTP packet intact", async () => {
    const data = Buffer.alloc(3 * 1024 * 1024 + 17, 7);
    data[data.length - 1] = 42;
    const session = await connectSftp(target());
    await session.put("large.bin", data);
    session.close();
    expect(server.files()["/large.bin"].equals(data)).toBe(true);
  });

  it("accepts the recorded host key and refuses a different one before signing in", async () => {
    const ok = await connectSftp(target({ hostKey: server.hostKeyFingerprint }));
    ok.close();
    const logins = server.logins().length;
    const error = await refusal(connectSftp(target({ hostKey: "SHA256:somebody-elses-key" })));
    expect(error.kind).toBe("host-key");
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(server.hostKeyFingerprint);
    expect(server.logins().length).toBe(logins);
  });

  it("says a wrong password was refused, and that trying again will not help", async () => {
    const error = await refusal(connectSftp(target({ password: "wrong" })));
    expect(error.kind).toBe("auth");
    expect(error.retryable).toBe(false);
    expect(error.message).toMatch(/refused the username or password/);
  });

  it("says an unreachable server is unreachable (closed port) or silent (within the time limit)", async () => {
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as net.AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const refused = await refusal(connectSftp(target({ port })));
    expect(refused.kind).toBe("unreachable");
    expect(refused.retryable).toBe(true);

    // A server that accepts the connection and never speaks.
    const sockets: net.Socket[] = [];
    const silent = net.createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const started = Date.now();
    const timedOut = await refusal(
      connectSftp(target({ port: (silent.address() as net.AddressInfo).port, timeoutMs: 400 })),
    );
    expect(timedOut.kind).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(3000);
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });

  it("says a full server has no room", async () => {
    server.setCapacity(
      Object.values(server.files()).reduce((sum, data) => sum + data.length, 0) + 10,
    );
    try {
      const session = await connectSftp(target());
      const error = await refusal(session.put("big.jpg", Buffer.alloc(1000)));
      session.close();
      expect(error.kind).toBe("no-space");
      expect(error.message).toMatch(/no room/);
    } finally {
      server.setCapacity(undefined);
    }
  });
});
