import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { mailLinkOrigin } from "~/infra/configured-origin.server";
import { queueMailWithinRecipientLimit } from "~/features/mail/public.server";
import { findUserByEmail } from "~/features/accounts/users.server";
import { hashPassword } from "~/features/accounts/passwords/passwords.server";
import { assertAcceptableNewPassword } from "~/features/accounts/passwords/common-passwords.server";
import {
  registrationLink,
  sealRegistration,
} from "~/features/accounts/registration/registration-links.server";
import {
  renderAlreadyRegisteredMail,
  renderCreateAccountMail,
} from "~/features/accounts/registration/registration-mail.server";

/**
 * Takes a registration: every accepted one does the same work (the password
 * rules, one scrypt hash, one mail queued), so nothing tells which emails have
 * accounts. A new email is mailed a link that creates the account, once
 * (registration-links.server.ts); an email that has an account is mailed a
 * notice that someone tried, with the ways to sign in or reset the password.
 * Nothing is mailed without a configured origin for the links.
 */
export async function requestRegistration(
  db: DB,
  config: Config,
  registration: { email: string; password: string; firstName: string; lastName: string },
  now: Date,
): Promise<void> {
  assertAcceptableNewPassword(registration.password);
  const passwordHash = await hashPassword(registration.password);
  const existing = await findUserByEmail(db, registration.email);
  const origin = mailLinkOrigin(config, "A registration mail");
  if (!origin) return;
  await db.transaction().execute(async (trx) => {
    const message = existing
      ? renderAlreadyRegisteredMail({
          firstName: existing.first_name,
          signInLink: `${origin}/auth`,
          resetLink: `${origin}/forgot-password`,
        })
      : renderCreateAccountMail({
          firstName: registration.firstName,
          link: registrationLink(
            origin,
            await sealRegistration(
              trx,
              config.appSecret,
              {
                email: registration.email,
                firstName: registration.firstName,
                lastName: registration.lastName,
                passwordHash,
              },
              now,
            ),
          ),
        });
    // Anyone can type any address here: the mail counts toward the recipient's limit of such mail.
    await queueMailWithinRecipientLimit(trx, {
      to: existing?.email ?? registration.email,
      ...message,
      now,
    });
  });
  announceJobs();
}
