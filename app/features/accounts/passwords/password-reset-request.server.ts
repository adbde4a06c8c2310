import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { mailLinkOrigin } from "~/infra/configured-origin.server";
import { queueMailWithinRecipientLimit } from "~/features/mail/public.server";
import { findUserByEmail } from "~/features/accounts/users.server";
import { resetLink, signResetToken } from "~/features/accounts/passwords/password-reset.server";
import { renderResetPasswordMail } from "~/features/accounts/passwords/reset-password-mail.server";

class DecoyRollback extends Error {}

/**
 * Mails a password reset link to an email, doing the same work whether or
 * not it has an account: the user lookup, a signed token, the rendered
 * message and its mail job inserted in a transaction. For a known account
 * that is not banned the transaction commits; otherwise it is rolled back,
 * so nothing is sent and nothing is kept, in about the same time.
 */
export async function mailPasswordResetLink(
  db: DB,
  config: Config,
  email: string,
  now: Date,
): Promise<void> {
  const user = await findUserByEmail(db, email);
  const account = user && !user.banned ? user : null;
  const token = signResetToken(
    config.appSecret,
    account ?? { id: "unknown", email, password_hash: "" },
    now,
  );
  const origin = mailLinkOrigin(config, "A password reset mail");
  if (!origin) return;
  const message = renderResetPasswordMail({
    firstName: account?.first_name ?? "",
    link: resetLink(origin, token),
  });
  try {
    await db.transaction().execute(async (trx) => {
      // Counted toward the recipient's limit of mail anyone can trigger, for unknown emails too (the same work).
      await queueMailWithinRecipientLimit(trx, { to: email, ...message, now });
      if (!account) throw new DecoyRollback();
    });
  } catch (error) {
    if (!(error instanceof DecoyRollback)) throw error;
  }
  announceJobs();
}
