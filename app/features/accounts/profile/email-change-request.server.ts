import type { UserRow } from "#db/schema";
import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { mailLinkOrigin } from "~/infra/configured-origin.server";
import { type KeyRateLimitRule, throttleKey } from "~/infra/rate-limit.server";
import { queueMail, queueMailWithinRecipientLimit } from "~/features/mail/public.server";
import { checkCurrentPassword } from "~/features/accounts/passwords/current-password.server";
import { WRONG_PASSWORD } from "~/features/accounts/account-erasure.server";
import {
  assertNotOwnEmail,
  emailChangeLink,
  holderOfEmail,
  startEmailChange,
} from "~/features/accounts/profile/email-change.server";
import {
  renderConfirmEmailChangeMail,
  renderEmailChangeNoticeMail,
  renderEmailTakenNoticeMail,
} from "~/features/accounts/profile/email-change-mail.server";

/** Email change requests one account may make in an hour (each mails two addresses). */
export const EMAIL_CHANGES_PER_ACCOUNT = 5;

const EMAIL_CHANGE_RATE_LIMIT: KeyRateLimitRule = {
  name: "email-change",
  limit: EMAIL_CHANGES_PER_ACCOUNT,
  windowMs: 60 * 60 * 1000,
  message: "Too many email change requests.",
};

/**
 * Starts a change of the user's email: with the current password (400 when
 * wrong, counted as a sign-in attempt: 429 past the sign-in limits), at most
 * EMAIL_CHANGES_PER_ACCOUNT an hour per account (429), records the waiting
 * change, mails the new address a link that makes the change and the old one
 * a notice. An address another account has is answered and recorded the same
 * (nothing tells which addresses have accounts), but it is mailed a notice
 * that someone tried instead of the link; a link is checked again when used
 * (409). Nothing is mailed without a configured origin for the links.
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
  assertNotOwnEmail(user, request.email);
  // Counted per account, wherever it asks from: each request mails two addresses.
  await throttleKey({ db, now: request.now, config }, EMAIL_CHANGE_RATE_LIMIT, user.id);
  const holder = await holderOfEmail(db, request.email);
  const origin = mailLinkOrigin(config, "An email change mail");
  if (!origin) return;
  const { now } = request;
  await db.transaction().execute(async (trx) => {
    const token = await startEmailChange(trx, user, request.email, now);
    const message = holder
      ? renderEmailTakenNoticeMail({
          firstName: holder.first_name,
          signInLink: `${origin}/auth`,
          resetLink: `${origin}/forgot-password`,
        })
      : renderConfirmEmailChangeMail({
          firstName: user.first_name,
          newEmail: request.email,
          link: emailChangeLink(origin, token),
        });
    // The new address is typed by the caller: it counts toward that recipient's limit of such mail.
    await queueMailWithinRecipientLimit(trx, { to: request.email, ...message, now });
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
