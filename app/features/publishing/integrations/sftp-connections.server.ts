import type { Config } from "~/infra/config.server";
import { badRequest } from "~/infra/errors.server";
import { connectSftp } from "~/infra/sftp/sftp-client.server";
import type { SftpConnect } from "~/infra/sftp/sftp-client.server";
import { SftpError } from "~/infra/sftp/sftp-errors.server";
import type { Platform } from "~/features/publishing/platforms";

/**
 * SFTP connections to stock agencies (Adobe Stock): where the server is, and
 * the check a connection must pass before it is saved: connect, verify the
 * host key (the one recorded before, if any), sign in, list the home folder.
 * A connection that fails the check is refused with a sentence that says why,
 * and nothing is saved.
 */

export interface SftpServerAddress {
  host: string;
  port: number;
  /** Connecting, the handshake and signing in must finish within this. */
  timeoutMs: number;
}

/** How long a connection check (or a job's connection) may take to sign in. */
export const SFTP_CONNECT_TIMEOUT_MS = 10_000;

/** The SFTP server of a platform that takes submissions over SFTP. */
export function sftpServerFor(
  _platform: Platform,
  config: Pick<Config, "ADOBE_STOCK_SFTP_HOST" | "ADOBE_STOCK_SFTP_PORT">,
): SftpServerAddress {
  // Adobe Stock is the one such platform today.
  return {
    host: config.ADOBE_STOCK_SFTP_HOST,
    port: config.ADOBE_STOCK_SFTP_PORT,
    timeoutMs: SFTP_CONNECT_TIMEOUT_MS,
  };
}

/**
 * Signs in with the given username and password and lists the home folder;
 * answers the server's host key fingerprint. Throws a 400 (with the field to
 * correct) when the server cannot be reached, refuses the sign-in or presents
 * a host key other than `pinnedHostKey`.
 */
export async function checkSftpConnection(args: {
  platform: Platform;
  server: SftpServerAddress;
  username: string;
  password: string;
  pinnedHostKey: string | null;
  connect?: SftpConnect;
}): Promise<{ hostKey: string }> {
  const connect = args.connect ?? connectSftp;
  const name = args.platform.name;
  try {
    const session = await connect({
      host: args.server.host,
      port: args.server.port,
      username: args.username,
      password: args.password,
      hostKey: args.pinnedHostKey,
      timeoutMs: args.server.timeoutMs,
    });
    try {
      await session.list(".");
    } finally {
      session.close();
    }
    return { hostKey: session.hostKey };
  } catch (error) {
    if (!(error instanceof SftpError)) throw error;
    if (error.kind === "auth") {
      const message = `${name} refused this SFTP username or password. Copy both again from the contributor portal (a newly generated password replaces the old one). Nothing was saved.`;
      throw badRequest(message, { apiKey: [message] });
    }
    throw badRequest(
      `Could not check the connection to ${name}: ${error.message} Nothing was saved.`,
    );
  }
}
