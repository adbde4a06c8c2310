import type { UserRow } from "#db/schema";
import type { Config } from "~/infra/config.server";
import type { DB } from "~/infra/db.server";
import { forbidden } from "~/infra/errors.server";
import { insertUser } from "~/features/accounts/users.server";
import {
  openRegistration,
  spendRegistrationLink,
} from "~/features/accounts/registration/registration-links.server";
import {
  spendInvitation,
  waitingInvitationOf,
} from "~/features/accounts/registration/waitlist.server";

export const REGISTRATION_CLOSED = "Registration is closed";

/**
 * The mailed link's button: creates the account the link carries, in one
 * transaction that spends the link (400 when it was used, or its address's
 * account was created or erased since: registration-links.server.ts). While
 * registration is closed (REGISTRATION) only an address holding a waiting
 * invitation may still use its link, and the account spends that invitation,
 * as registering through it would (403 otherwise). 409 when the address has an
 * account by now. A refused use changes nothing.
 */
export async function createAccountFromLink(
  db: DB,
  config: Pick<Config, "appSecret" | "REGISTRATION">,
  token: string,
  now: Date,
): Promise<UserRow> {
  const registration = openRegistration(config.appSecret, token, now);
  return db.transaction().execute(async (trx) => {
    await spendRegistrationLink(trx, config.appSecret, registration);
    const invitation =
      config.REGISTRATION === "open"
        ? undefined
        : await waitingInvitationOf(trx, registration.email, now);
    if (config.REGISTRATION !== "open" && !invitation) throw forbidden(REGISTRATION_CLOSED);
    const user = await insertUser(trx, registration, now);
    if (invitation) await spendInvitation(trx, { entryId: invitation.id, userId: user.id, now });
    return user;
  });
}
