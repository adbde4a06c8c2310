import type { DB } from "~/infra/db.server";
import type { AdminUser } from "~/features/admin/types";
import type { AdminCreateUserInput } from "~/features/admin/schemas";
import { createUser } from "~/features/accounts/public.server";
import { recordAuditEntry } from "~/features/audit/public.server";
import { findUserForAdmin } from "~/features/admin/users.server";

/**
 * The admin creates an account (registration is closed by default). The new
 * user signs in with the password the admin set; the creation is audited.
 */
export async function createUserAsAdmin(
  db: DB,
  { actorId, input, now }: { actorId: string; input: AdminCreateUserInput; now: Date },
): Promise<AdminUser> {
  return db.transaction().execute(async (trx) => {
    const created = await createUser(trx, input, now);
    await recordAuditEntry(trx, { actorId, action: "user.create", subjectId: created.id, now });
    // A new user has sold nothing: the scope of the sums makes no difference.
    const user = await findUserForAdmin(trx, created.id, { includeTestSales: false });
    return user!;
  });
}
