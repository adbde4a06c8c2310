import { createWebSession } from "~/features/accounts/sessions/sessions.server";
import { getDb } from "~/infra/db.server";
import { sha256 } from "~/infra/ids.server";
import { rowWhere } from "#tests/setup/rows-where";

/** A new web session of `userId`'s (as a sign-in in another browser makes), by the public id its settings list shows. */
export async function newWebSessionId(userId: string): Promise<string> {
  const { secret } = await createWebSession(getDb(), userId, 30);
  const row = await rowWhere("sessions", "public_id", "id_hash", sha256(secret));
  return row.public_id;
}
