import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import ssh2 from "ssh2";
import type { Connection, SFTPWrapper } from "ssh2";

/**
 * A real SFTP server for tests (vitest and Playwright alike): the `ssh2`
 * package's Server on 127.0.0.1 and a free port, password sign-in for the
 * given users, and an SFTP subsystem that keeps files in memory, or in `root`
 * when given (so another process, such as a Playwright worker, can read
 * them). It answers what an uploading client asks: REALPATH, STAT/LSTAT/FSTAT,
 * OPEN (write), WRITE, CLOSE, SETSTAT/FSETSTAT, OPENDIR/READDIR, REMOVE and
 * RENAME. With `capacityBytes`, a write past it answers SSH_FX_FAILURE "No
 * space left on device", as OpenSSH's server does when the disk is full.
 *
 * No app code is imported, so a Playwright global setup can start it too:
 *   const sftp = await startSftpServer({ users: { "123456": "secret" }, root: dir });
 *   process.env.ADOBE_STOCK_SFTP_HOST = "127.0.0.1"; process.env.ADOBE_STOCK_SFTP_PORT = String(sftp.port);
 */

const { Server, utils } = ssh2;
const { OPEN_MODE, STATUS_CODE } = utils.sftp;

export interface SftpServerOptions {
  /** username → password. */
  users: Record<string, string>;
  /** Keep files in this folder (created if missing) instead of in memory. */
  root?: string;
  /** A fixed host key (OpenSSH private key text); a new ed25519 key by default. */
  hostKey?: string;
  /** Refuse writes that would take the stored bytes past this (a full disk). */
  capacityBytes?: number;
  /** A fixed port; a free one by default. */
  port?: number;
}

export interface SftpTestServer {
  host: string;
  port: number;
  /** The host key's fingerprint as clients compute it ("SHA256:<base64>"). */
  hostKeyFingerprint: string;
  /** The host key (OpenSSH private key text), to start another server with the same key. */
  hostKeyText: string;
  /** Every stored file by its path ("/name.jpg"). */
  files(): Record<string, Buffer>;
  /** How many times each path was opened for writing. */
  writeOpens(): Record<string, number>;
  /** Sign-ins that succeeded, by username, in order. */
  logins(): string[];
  /** Changes the full-disk limit (undefined: none). */
  setCapacity(bytes: number | undefined): void;
  close(): Promise<void>;
}

function normalize(remote: string): string {
  const joined = path.posix.normalize(path.posix.join("/", remote));
  return joined === "" ? "/" : joined;
}

function sameSecret(given: string, expected: string): boolean {
  const a = crypto.createHash("sha256").update(given).digest();
  const b = crypto.createHash("sha256").update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

function fingerprintOf(privateKeyText: string): string {
  const parsed = utils.parseKey(privateKeyText);
  if (parsed instanceof Error) throw parsed;
  const key = Array.isArray(parsed) ? parsed[0] : parsed;
  const blob = key.getPublicSSH();
  return `SHA256:${crypto.createHash("sha256").update(blob).digest("base64").replace(/=+$/, "")}`;
}

/**
 * A fresh ed25519 host key. ssh2's generator strips the leading zero bytes of
 * the public key, so about one key in 256 comes out malformed and the server
 * refuses it ("Malformed OpenSSH private key", mscdex/ssh2 issue 1513): a key
 * that does not parse back is drawn again.
 */
function newHostKey(): string {
  for (;;) {
    const pair = utils.generateKeyPairSync("ed25519");
    if (
      !(utils.parseKey(pair.private) instanceof Error) &&
      !(utils.parseKey(pair.public) instanceof Error)
    )
      return pair.private;
  }
}

export async function startSftpServer(options: SftpServerOptions): Promise<SftpTestServer> {
  const hostKeyText = options.hostKey ?? newHostKey();
  const memory = new Map<string, Buffer>();
  const opens = new Map<string, number>();
  const signedIn: string[] = [];
  let capacity = options.capacityBytes;
  if (options.root) fs.mkdirSync(options.root, { recursive: true });

  const store = {
    read(name: string): Buffer | undefined {
      if (!options.root) return memory.get(name);
      const file = path.join(options.root, name);
      return fs.existsSync(file) && fs.statSync(file).isFile() ? fs.readFileSync(file) : undefined;
    },
    write(name: string, data: Buffer) {
      if (options.root) fs.writeFileSync(path.join(options.root, name), data);
      else memory.set(name, data);
    },
    remove(name: string): boolean {
      if (!options.root) return memory.delete(name);
      const file = path.join(options.root, name);
      if (!fs.existsSync(file)) return false;
      fs.rmSync(file);
      return true;
    },
    all(): Record<string, Buffer> {
      if (!options.root) return Object.fromEntries(memory);
      const root = options.root;
      return Object.fromEntries(
        fs
          .readdirSync(root, { withFileTypes: true })
          .filter((entry) => entry.isFile())
          .map((entry) => [`/${entry.name}`, fs.readFileSync(path.join(root, entry.name))]),
      );
    },
    used(): number {
      return Object.values(this.all()).reduce((sum, data) => sum + data.length, 0);
    },
  };

  const clients = new Set<Connection>();
  const server = new Server({ hostKeys: [hostKeyText] }, (client: Connection) => {
    clients.add(client);
    client.on("close", () => clients.delete(client));
    let username = "";
    client.on("authentication", (ctx) => {
      const expected = Object.prototype.hasOwnProperty.call(options.users, ctx.username)
        ? options.users[ctx.username]
        : undefined;
      if (
        ctx.method === "password" &&
        expected !== undefined &&
        sameSecret(ctx.password, expected)
      ) {
        username = ctx.username;
        return ctx.accept();
      }
      return ctx.reject(["password"]);
    });
    client.on("ready", () => {
      signedIn.push(username);
      client.on("session", (acceptSession) => {
        const session = acceptSession();
        session.on("sftp", (acceptSftp) => serveSftp(acceptSftp()));
      });
    });
    client.on("error", () => {
      // A client that hangs up mid-handshake (a refused password, a test's timeout) is not the server's concern.
    });
  });

  function serveSftp(sftp: SFTPWrapper) {
    /** Open handles: a file being written (its path and bytes so far) or a folder being listed. */
    const handles = new Map<
      number,
      | { kind: "file"; name: string; chunks: Buffer[]; size: number }
      | { kind: "dir"; listed: boolean }
    >();
    let next = 0;
    const handleOf = (id: number) => {
      const buffer = Buffer.alloc(4);
      buffer.writeUInt32BE(id, 0);
      return buffer;
    };
    const idOf = (handle: Buffer) => (handle.length === 4 ? handle.readUInt32BE(0) : -1);
    const fileAttrs = (size: number) => ({
      mode: 0o100644,
      uid: 0,
      gid: 0,
      size,
      atime: 0,
      mtime: 0,
    });
    const dirAttrs = { mode: 0o040755, uid: 0, gid: 0, size: 0, atime: 0, mtime: 0 };

    sftp.on("REALPATH", (reqid, remote) => {
      const name = normalize(remote);
      sftp.name(reqid, [{ filename: name, longname: name, attrs: dirAttrs }]);
    });
    const stat = (reqid: number, remote: string) => {
      const name = normalize(remote);
      if (name === "/") return sftp.attrs(reqid, dirAttrs);
      const data = store.read(name);
      return data
        ? sftp.attrs(reqid, fileAttrs(data.length))
        : sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE, "No such file");
    };
    sftp.on("STAT", stat);
    sftp.on("LSTAT", stat);
    sftp.on("OPEN", (reqid, remote, flags) => {
      const name = normalize(remote);
      if (!(flags & OPEN_MODE.WRITE) || path.posix.dirname(name) !== "/") {
        return sftp.status(
          reqid,
          STATUS_CODE.PERMISSION_DENIED,
          "Only uploads to the home folder are allowed",
        );
      }
      opens.set(name, (opens.get(name) ?? 0) + 1);
      const id = next++;
      handles.set(id, { kind: "file", name, chunks: [], size: 0 });
      sftp.handle(reqid, handleOf(id));
    });
    sftp.on("WRITE", (reqid, handle, offset, data) => {
      const open = handles.get(idOf(handle));
      if (!open || open.kind !== "file")
        return sftp.status(reqid, STATUS_CODE.FAILURE, "Bad handle");
      if (capacity !== undefined && store.used() + open.size + data.length > capacity) {
        return sftp.status(reqid, STATUS_CODE.FAILURE, "No space left on device");
      }
      if (offset !== open.size)
        return sftp.status(
          reqid,
          STATUS_CODE.OP_UNSUPPORTED,
          "Only sequential writes are supported",
        );
      open.chunks.push(Buffer.from(data));
      open.size += data.length;
      sftp.status(reqid, STATUS_CODE.OK);
    });
    sftp.on("FSTAT", (reqid, handle) => {
      const open = handles.get(idOf(handle));
      if (!open) return sftp.status(reqid, STATUS_CODE.FAILURE, "Bad handle");
      sftp.attrs(reqid, open.kind === "file" ? fileAttrs(open.size) : dirAttrs);
    });
    sftp.on("FSETSTAT", (reqid) => sftp.status(reqid, STATUS_CODE.OK));
    sftp.on("SETSTAT", (reqid) => sftp.status(reqid, STATUS_CODE.OK));
    sftp.on("CLOSE", (reqid, handle) => {
      const id = idOf(handle);
      const open = handles.get(id);
      if (!open) return sftp.status(reqid, STATUS_CODE.FAILURE, "Bad handle");
      handles.delete(id);
      if (open.kind === "file") store.write(open.name, Buffer.concat(open.chunks));
      sftp.status(reqid, STATUS_CODE.OK);
    });
    sftp.on("OPENDIR", (reqid, remote) => {
      if (normalize(remote) !== "/")
        return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE, "No such folder");
      const id = next++;
      handles.set(id, { kind: "dir", listed: false });
      sftp.handle(reqid, handleOf(id));
    });
    sftp.on("READDIR", (reqid, handle) => {
      const open = handles.get(idOf(handle));
      if (!open || open.kind !== "dir")
        return sftp.status(reqid, STATUS_CODE.FAILURE, "Bad handle");
      if (open.listed) return sftp.status(reqid, STATUS_CODE.EOF);
      open.listed = true;
      const entries = Object.entries(store.all()).map(([name, data]) => {
        const filename = name.slice(1);
        return {
          filename,
          longname: `-rw-r--r-- 1 sftp sftp ${data.length} Jan 1 00:00 ${filename}`,
          attrs: fileAttrs(data.length),
        };
      });
      if (entries.length === 0) return sftp.status(reqid, STATUS_CODE.EOF);
      sftp.name(reqid, entries);
    });
    sftp.on("REMOVE", (reqid, remote) =>
      sftp.status(
        reqid,
        store.remove(normalize(remote)) ? STATUS_CODE.OK : STATUS_CODE.NO_SUCH_FILE,
      ),
    );
    sftp.on("RENAME", (reqid, from, to) => {
      const data = store.read(normalize(from));
      if (!data) return sftp.status(reqid, STATUS_CODE.NO_SUCH_FILE, "No such file");
      store.remove(normalize(from));
      store.write(normalize(to), data);
      sftp.status(reqid, STATUS_CODE.OK);
    });
  }

  const host = "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as { port: number }).port;

  return {
    host,
    port,
    hostKeyFingerprint: fingerprintOf(hostKeyText),
    hostKeyText,
    files: () => store.all(),
    writeOpens: () => Object.fromEntries(opens),
    logins: () => [...signedIn],
    setCapacity: (bytes) => {
      capacity = bytes;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Connections still open would keep close() waiting.
        for (const client of clients) client.end();
      }),
  };
}
