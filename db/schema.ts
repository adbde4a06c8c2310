import type { Generated, Insertable, Selectable, Updateable } from "kysely";

/** The typed database schema, kept in step with db/migrations (a test checks). */

export interface UsersTable {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  profile_image_url: string | null;
  banned: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface SessionsTable {
  id_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface ApiTokensTable {
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

export interface AuthFailuresTable {
  id: Generated<number>;
  bucket: string;
  created_at: string;
}

export interface AuditLogTable {
  id: Generated<number>;
  actor_id: string;
  action: string;
  subject_id: string | null;
  detail: string | null;
  created_at: string;
}

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  status: Generated<"queued" | "running" | "done" | "failed">;
  attempts: Generated<number>;
  max_attempts: Generated<number>;
  run_at: string;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  auth_failures: AuthFailuresTable;
  audit_log: AuditLogTable;
  jobs: JobsTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type JobRow = Selectable<JobsTable>;
