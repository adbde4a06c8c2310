import { parseArgs } from "node:util";
import { startSftpServer } from "./sftp-server";

/**
 * The test SFTP server as a process of its own, for a Playwright `webServer`
 * entry (which waits for its port) or a manual try-out:
 *
 *   node --import tsx tests/setup/sftp-server-cli.ts --port 2299 --user 208400001:secret --root tests/.tmp/sftp
 *
 * then start the app with ADOBE_STOCK_SFTP_HOST=127.0.0.1 ADOBE_STOCK_SFTP_PORT=2299. Uploaded
 * files land in --root (in memory without it). Stops on SIGINT or SIGTERM.
 */

const { values } = parseArgs({
  options: {
    port: { type: "string", default: "0" },
    user: { type: "string", multiple: true, default: [] },
    root: { type: "string" },
  },
});

const users = Object.fromEntries(
  (values.user ?? []).map((pair) => {
    const at = pair.indexOf(":");
    if (at <= 0) throw new Error(`--user takes name:password, not ${JSON.stringify(pair)}`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }),
);

const server = await startSftpServer({ users, root: values.root, port: Number(values.port) });
console.log(
  `SFTP test server on ${server.host}:${server.port} (host key ${server.hostKeyFingerprint})`,
);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
