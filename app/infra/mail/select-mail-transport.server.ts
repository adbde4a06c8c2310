import type { Config } from "~/infra/config.server";
import type { MailTransport } from "~/infra/mail/mail-transport.server";
import { createOutboxTransport } from "~/infra/mail/outbox-transport.server";
import { createSmtpTransport } from "~/infra/mail/smtp-transport.server";

/**
 * The transport mail leaves by: SMTP when SMTP_URL is set, else the outbox
 * (DATA_DIR/outbox, one .eml file per message), so a development or demo
 * server sends nothing out and every message can still be read. Chosen per
 * call, so a restart with a changed configuration picks up the change.
 */
export function selectMailTransport(
  config: Pick<Config, "SMTP_URL" | "outboxDir">,
  options: { log?: (line: string) => void } = {},
): MailTransport {
  if (config.SMTP_URL) return createSmtpTransport(config.SMTP_URL);
  return createOutboxTransport({ dir: config.outboxDir, log: options.log });
}
