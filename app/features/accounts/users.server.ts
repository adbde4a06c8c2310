import type { DB } from "~/infra/db.server";
import type { UserRow } from "#db/schema";
import { newId } from "~/infra/ids.server";
import { conflict } from "~/infra/errors.server";
import type { PublicUser } from "~/lib/accounts";
import { SUPER_ADMIN_ID } from "~/lib/accounts";
import { hashPassword } from "~/features/accounts/passwords/passwords.server";
import { assertAcceptableNewPassword } from "~/features/accounts/passwords/common-passwords.server";

export function toPublicUser(row: UserRow): PublicUser {
  return {
    id: row.id,
    email: row.email,
    firstName: row.first_name,
    lastName: row.last_name,
    profileImageUrl: row.profile_image_url,
    createdAt: row.created_at,
    isAdmin: row.id === SUPER_ADMIN_ID,
  };
}

export interface NewUser {
  id?: string;
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

/** Creates an account; its password must pass the new-password rules (common-passwords.server.ts). */
export async function createUser(db: DB, input: NewUser, now = new Date()): Promise<UserRow> {
  assertAcceptableNewPassword(input.password);
  return insertUser(db, { ...input, passwordHash: await hashPassword(input.password) }, now);
}

/** Inserts an account whose password was hashed already (a confirmed registration); 409 for an email in use. */
export async function insertUser(
  db: DB,
  input: Omit<NewUser, "password"> & { passwordHash: string },
  now: Date,
): Promise<UserRow> {
  const row: UserRow = {
    id: input.id ?? newId(),
    email: input.email.trim().toLowerCase(),
    first_name: input.firstName.trim(),
    last_name: input.lastName.trim(),
    password_hash: input.passwordHash,
    profile_image_url: null,
    banned: 0,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    handle: null,
    bio: null,
    face_consent_version: null,
    face_consent_at: null,
    erased_at: null,
  };
  const inserted = await db
    .insertInto("users")
    .values(row)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  if (!inserted) throw conflict("An account with this email already exists");
  return inserted;
}

export function findUserByEmail(db: DB, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom("users")
    .selectAll()
    .where("email", "=", email.trim().toLowerCase())
    .executeTakeFirst();
}

export function findUserById(db: DB, id: string): Promise<UserRow | undefined> {
  return db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
}

/** Sets a new password, which must pass the new-password rules. */
export async function setPassword(db: DB, userId: string, password: string, now = new Date()) {
  assertAcceptableNewPassword(password);
  const passwordHash = await hashPassword(password);
  const result = await db
    .updateTable("users")
    .set({ password_hash: passwordHash, updated_at: now.toISOString() })
    .where("id", "=", userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Whether the user's account was erased (its row is a tombstone); false for an unknown id. */
export async function isAccountErased(db: DB, userId: string): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("erased_at")
    .where("id", "=", userId)
    .executeTakeFirst();
  return Boolean(row?.erased_at);
}

/**
 * Bans or unbans the user (an admin's call): "erased" leaves a tombstone as it
 * is, "not-found" answers an unknown id.
 */
export async function setUserBanned(
  db: DB,
  { userId, banned, now }: { userId: string; banned: boolean; now: Date },
): Promise<"updated" | "erased" | "not-found"> {
  const target = await db
    .selectFrom("users")
    .select("erased_at")
    .where("id", "=", userId)
    .executeTakeFirst();
  if (!target) return "not-found";
  if (target.erased_at) return "erased";
  const updated = await db
    .updateTable("users")
    .set({ banned: banned ? 1 : 0, updated_at: now.toISOString() })
    .where("id", "=", userId)
    .where("erased_at", "is", null)
    .executeTakeFirst();
  return updated.numUpdatedRows === 0n ? "not-found" : "updated";
}

/**
 * Records the version of the face-processing text the user agreed to and
 * when, or clears both (`consent` null: withdrawn). Answers the updated user,
 * undefined for an unknown id.
 */
export function setFaceConsent(
  db: DB,
  userId: string,
  consent: { version: string; at: Date } | null,
  now: Date,
): Promise<UserRow | undefined> {
  return db
    .updateTable("users")
    .set({
      face_consent_version: consent?.version ?? null,
      face_consent_at: consent ? consent.at.toISOString() : null,
      updated_at: now.toISOString(),
    })
    .where("id", "=", userId)
    .returningAll()
    .executeTakeFirst();
}
