import crypto from "node:crypto";
import { Client } from "ssh2";
import type { SFTPWrapper } from "ssh2";
import { SftpError, sftpErrorFrom, sftpWriteError } from "~/infra/sftp/sftp-errors.server";

/**
 * A small SFTP client over ssh2: connect with a username and password, put a
 * file, list a folder, close. The server's host key is checked against the
 * fingerprint recorded the first time (trust on first use): a session
 * reports the key it saw, and a connection whose key differs from the one
 * given is refused before any password is sent.
 */

export interface SftpTarget {
  host: string;
  port: number;
  username: string;
  password: string;
  /** The host key fingerprint ("SHA256:...") this server must present; null to accept and report whatever it has. */
  hostKey: string | null;
  /** Connecting, the handshake and signing in must finish within this. */
  timeoutMs: number;
}

export interface SftpSession {
  /** The fingerprint of the host key the server presented ("SHA256:<base64>", as OpenSSH prints it). */
  readonly hostKey: string;
  /** Writes `data` to `remotePath`, replacing a file of that name (so a repeated upload overwrites, never duplicates). */
  put(remotePath: string, data: Buffer): Promise<void>;
  /** The names in a folder ("." is the folder the server logs the user into). */
  list(remotePath?: string): Promise<string[]>;
  close(): void;
}

/** The connector of a platform that takes files over SFTP asks for sessions through this. */
export type SftpConnect = (target: SftpTarget) => Promise<SftpSession>;

/** OpenSSH's fingerprint of a raw public key blob: SHA256, base64 without padding. */
export function hostKeyFingerprint(key: Buffer): string {
  return `SHA256:${crypto.createHash("sha256").update(key).digest("base64").replace(/=+$/, "")}`;
}

export const connectSftp: SftpConnect = (target) =>
  new Promise<SftpSession>((resolve, reject) => {
    const client = new Client();
    let seenKey: string | null = null;
    let keyRefused = false;
    let settled = false;
    const fail = (error: SftpError) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      client.end();
      reject(error);
    };
    // The handshake has readyTimeout; this also bounds opening the SFTP channel after it.
    const timer = setTimeout(
      () =>
        fail(
          new SftpError(
            "timeout",
            `The SFTP server at ${where(target)} did not answer within ${Math.round(target.timeoutMs / 1000)} s.`,
          ),
        ),
      target.timeoutMs,
    );

    client.on("error", (error) => {
      if (keyRefused) {
        fail(
          new SftpError(
            "host-key",
            `The SFTP server at ${where(target)} presented a different host key (${seenKey}) from the one recorded when you connected ` +
              `(${target.hostKey}). Nothing was sent. If the agency announced a new key, disconnect and connect again.`,
          ),
        );
        return;
      }
      fail(sftpErrorFrom(error, where(target)));
    });
    client.on("close", () =>
      fail(
        new SftpError("unreachable", `The SFTP server at ${where(target)} closed the connection.`),
      ),
    );
    client.on("ready", () => {
      client.sftp((error, sftp) => {
        if (error) return fail(sftpErrorFrom(error, where(target)));
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(session(client, sftp, seenKey!));
      });
    });

    client.connect({
      host: target.host,
      port: target.port,
      username: target.username,
      password: target.password,
      readyTimeout: target.timeoutMs,
      tryKeyboard: false,
      hostVerifier: (key: Buffer) => {
        seenKey = hostKeyFingerprint(key);
        if (target.hostKey && target.hostKey !== seenKey) {
          keyRefused = true;
          return false;
        }
        return true;
      },
    });
  });

function where(target: SftpTarget): string {
  return target.port === 22 ? target.host : `${target.host}:${target.port}`;
}

function session(client: Client, sftp: SFTPWrapper, hostKey: string): SftpSession {
  return {
    hostKey,
    put: (remotePath, data) =>
      new Promise<void>((resolve, reject) => {
        // "w": created or truncated, so trying again replaces what a failed attempt left.
        sftp.writeFile(remotePath, data, { flag: "w", mode: 0o644 }, (error) =>
          error ? reject(sftpWriteError(error, remotePath)) : resolve(),
        );
      }),
    list: (remotePath = ".") =>
      new Promise<string[]>((resolve, reject) => {
        sftp.readdir(remotePath, (error, entries) =>
          error
            ? reject(sftpErrorFrom(error, remotePath))
            : resolve(entries.map((entry) => entry.filename)),
        );
      }),
    close: () => {
      sftp.end();
      client.end();
    },
  };
}
