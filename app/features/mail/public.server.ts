// What other features use of mail: queuing a message, the admin's view of undelivered mail, and a recipient's erasure.
export {
  queueMail,
  queueMailWithinRecipientLimit,
  type QueueMailInput,
} from "~/features/mail/mail-queue.server";
export { MAIL_JOB } from "~/features/mail/mail-job.server";
export { purgeOldMailJobs } from "~/features/mail/mail-retention.server";
export { mailSetupAlert, undeliveredMail } from "~/features/mail/undelivered-mail.server";
export {
  forgetMailTo,
  forgetOutboxMailTo,
  outboxRecipientKeys,
} from "~/features/mail/recipient-erasure.server";
