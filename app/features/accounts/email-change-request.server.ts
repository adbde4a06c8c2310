import type { UserRow } from "#db/schema";
import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { mailLinkOrigin } from "~/infra/configured-origin.server";
import { queueMail, queueMailWithinRecipientLimit } from "~/features/mail/lends.server";
import { checkCurrentPassword } from "~/features/accounts/current-password.server";
import { WRONG_PASSWORD } from "~/features/accounts/account-erasure.server";
import {
  assertEmailAvailable,
  emailChangeLink,
  startEmailChange,
} from "~/features/accounts/email-change.server";
import {
  renderConfirmEmailChangeMail,
  renderEmailChangeNoticeMail,
} from "~/features/accounts/email-change-mail.server";

/**
 * Starts a change of the user's email: with the current password (400 when
 * wrong, counted as a sign-in attempt: 429 past the sign-in limits), to an address no account uses (409), mails the new address a link
 * that makes the change and the old one a notice. Nothing is mailed without
 * a configured origin for the links.
 */
export async function mailEmailChangeLink(
  db: DB,
  config: Config,
  user: UserRow,
  request: { email: string; password: string; clientIp: string; now: Date },
): Promise<void> {
  await checkCurrentPassword(
    db,
    {
      email: user.email,
      passwordHash: user.password_hash,
      password: request.password,
      clientIp: request.clientIp,
      now: request.now,
    },
    { message: WRONG_PASSWORD, field: "password" },
  );
  await assertEmailAvailable(db, user, request.email);
  const origin = mailLinkOrigin(config, "An email change mail");
  if (!origin) return;
  const { now } = request;
  await db.transaction().execute(async (trx) => {
    const token = await startEmailChange(trx, user, request.email, now);
    const confirm = renderConfirmEmailChangeMail({
      firstName: user.first_name,
      newEmail: request.email,
      link: emailChangeLink(origin, token),
    });
    // The new address is typed by the caller: it counts toward that recipient's limit of such mail.
    await queueMailWithinRecipientLimit(trx, { to: request.email, ...confirm, now });
    const notice = renderEmailChangeNoticeMail({
      firstName: user.first_name,
      newEmail: request.email,
      settingsLink: `${origin}/settings`,
      resetLink: `${origin}/forgot-password`,
    });
    await queueMail(trx, { to: user.email, ...notice, now });
  });
  announceJobs();
}
