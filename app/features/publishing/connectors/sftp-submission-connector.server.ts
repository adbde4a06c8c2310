import type { Connector } from "~/features/publishing/connectors/connector.server";
import { PermanentPublishError } from "~/features/publishing/connectors/connector.server";
import {
  buildStockSubmission,
  stockSizeRefusal,
  StockSubmissionRefused,
} from "~/features/publishing/connectors/stock-submission.server";
import type { SftpServerAddress } from "~/features/publishing/integrations/sftp-connections.server";
import { connectSftp } from "~/infra/sftp/sftp-client.server";
import type { SftpConnect } from "~/infra/sftp/sftp-client.server";
import { SftpError } from "~/infra/sftp/sftp-errors.server";

/**
 * Stock agencies that take files over SFTP (Adobe Stock): builds the
 * submission file from the styled image at the size the engine made it
 * (stock-submission.server.ts; an image under 4 MP is refused, never
 * enlarged), signs in with the creator's
 * SFTP username and password against the host key recorded when the
 * connection was saved, uploads the file under a name fixed per publication
 * (so a retry replaces it rather than adding a second copy) and answers
 * `submitted`: the agency reviews the file before it sells, and nothing here
 * can see that review, so it never says `live`.
 */

/** What the publication's details record about a submission. */
export interface SubmissionDetails {
  fileName: string;
  width: number;
  height: number;
  bytes: number;
  keywords: number;
}

/** The remote file's name: one per publication, the same on every attempt. */
export function submissionFileName(publicationId: string): string {
  return `selfie-studio-${publicationId.replace(/[^A-Za-z0-9_-]/g, "")}.jpg`;
}

export function sftpSubmissionConnector(hooks: {
  server: SftpServerAddress;
  connect?: SftpConnect;
  /** The agency refused the stored username or password. */
  onAuthRejected: (message: string) => Promise<void>;
}): Connector {
  const connect = hooks.connect ?? connectSftp;
  return {
    async publish(request, deps) {
      const credential = request.credential;
      const name = request.platform.name;
      if (!credential?.accountName)
        return { status: "needs_auth", error: `Connect ${name} first.` };

      // The styled file as the engine made it (an optimized copy may be enlarged or reduced).
      const native = request.image.native ?? null;
      let submission;
      try {
        if (!native) throw new StockSubmissionRefused(stockSizeRefusal(null, name)!);
        submission = await buildStockSubmission({
          title: request.content.title,
          description: request.content.description,
          style: request.image.style,
          tags: request.content.tags,
          creatorName: request.creator.name,
          source: await deps.store.read(request.image.styledFileKey),
          native,
          createdAt: deps.now(),
        });
      } catch (error) {
        if (error instanceof StockSubmissionRefused) throw new PermanentPublishError(error.message);
        throw error;
      }
      const fileName = submissionFileName(request.publicationId);

      try {
        const session = await connect({
          host: hooks.server.host,
          port: hooks.server.port,
          username: credential.accountName,
          password: credential.secret,
          hostKey: credential.hostKey ?? null,
          timeoutMs: hooks.server.timeoutMs,
        });
        // A job that times out or is called off hangs up, so a stalled upload does not hold the connection.
        const hangUp = () => session.close();
        deps.signal.addEventListener("abort", hangUp, { once: true });
        try {
          await session.put(fileName, submission.jpeg);
        } finally {
          deps.signal.removeEventListener("abort", hangUp);
          session.close();
        }
      } catch (error) {
        if (!(error instanceof SftpError)) throw error;
        if (error.kind === "auth") {
          const message = `${name} refused the SFTP username or password; generate a new SFTP password in the contributor portal and connect again.`;
          await hooks.onAuthRejected(message);
          return { status: "needs_auth", error: message };
        }
        const message = `Uploading to ${name} failed: ${error.message}`;
        if (!error.retryable) throw new PermanentPublishError(message);
        throw new SftpError(error.kind, message, { cause: error });
      }

      const details: SubmissionDetails = {
        fileName,
        width: submission.width,
        height: submission.height,
        bytes: submission.jpeg.length,
        keywords: submission.keywords.length,
      };
      return { status: "submitted", url: null, error: null, details: JSON.stringify(details) };
    },
  };
}

/** The sentence the publication list shows for a submission's details (null when there are none). */
export function submissionNote(details: string | null): string | null {
  if (!details) return null;
  let parsed: Partial<SubmissionDetails>;
  try {
    parsed = JSON.parse(details) as Partial<SubmissionDetails>;
  } catch {
    return null;
  }
  if (!parsed.fileName || !parsed.width || !parsed.height) return null;
  const megapixels = ((parsed.width * parsed.height) / 1_000_000).toFixed(1);
  const size = `${parsed.width}×${parsed.height} JPEG (${megapixels} MP)`;
  return `Sent ${parsed.fileName}, ${size} as the style engine made it, with its title, ${parsed.keywords ?? 0} keywords and the IPTC digital source type embedded.`;
}
