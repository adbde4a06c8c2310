import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { HttpError } from "~/infra/errors.server";
import { announceJobs } from "~/infra/jobs/job-queue.server";
import { mailLinkOrigin } from "~/infra/configured-origin.server";
import { queueMail, queueMailWithinRecipientLimit } from "~/features/mail/public.server";
import { recordAuditEntry } from "~/features/audit/public.server";
import {
  addToWaitlist,
  betaSpotsLeft,
  invitationLink,
  inviteEntry,
} from "~/features/accounts/registration/waitlist.server";
import {
  renderInvitationMail,
  renderWaitlistJoinedMail,
} from "~/features/accounts/registration/waitlist-mail.server";

/**
 * Puts an address on the waitlist once and mails it a confirmation that states
 * the beta's spots left as the landing page does (betaSpotsLeft). A second
 * request for an address on the list does the same work and mails the same
 * confirmation (which is true either way), so neither the answer nor the
 * mail tells whether the address was on the list.
 */
export async function joinWaitlistWithConfirmation(
  db: DB,
  args: { email: string; spots: number; now: Date },
): Promise<void> {
  const { email, now } = args;
  await db.transaction().execute(async (trx) => {
    await addToWaitlist(trx, email, now);
    // The spots left as the landing page counts them (the same function, BETA_SPOTS minus the spots taken).
    const spots = await betaSpotsLeft(trx, args.spots, now);
    // Anyone can type any address here: the mail counts toward the recipient's limit of such mail.
    await queueMailWithinRecipientLimit(trx, {
      to: email,
      ...renderWaitlistJoinedMail(spots),
      now,
    });
  });
  announceJobs();
}

/**
 * Invites a waitlist entry and mails its address the invitation's link
 * (409 without a configured origin for the link, or as inviteEntry refuses);
 * the audit log records it.
 */
export async function inviteWithMail(
  db: DB,
  config: Config,
  invite: { entryId: string; adminId: string; now: Date },
): Promise<{ email: string; expiresAt: string }> {
  const origin = mailLinkOrigin(config, "An invitation mail");
  if (!origin)
    throw new HttpError(409, "Invitations need PUBLIC_URL: their links are built only from it.");
  const invitation = await db.transaction().execute(async (trx) => {
    const made = await inviteEntry(trx, {
      entryId: invite.entryId,
      adminId: invite.adminId,
      spots: config.BETA_SPOTS,
      now: invite.now,
    });
    await queueMail(trx, {
      to: made.email,
      ...renderInvitationMail({ link: invitationLink(origin, made.token) }),
      now: invite.now,
    });
    await recordAuditEntry(trx, {
      actorId: invite.adminId,
      action: "waitlist.invite",
      subjectId: invite.entryId,
      now: invite.now,
    });
    return made;
  });
  announceJobs();
  return { email: invitation.email, expiresAt: invitation.expiresAt };
}
