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

export interface ImagesTable {
  id: string;
  user_id: string;
  file_key: string;
  width: number;
  height: number;
  bytes: number;
  mime_type: string;
  created_at: string;
}

export type StylizedStatus = "pending" | "processing" | "completed" | "failed";

export interface StylizedImagesTable {
  id: string;
  image_id: string;
  user_id: string;
  style: string;
  status: Generated<StylizedStatus>;
  /** The engine that makes it: "local" or "fal". */
  provider: string;
  file_key: string | null;
  width: number | null;
  height: number | null;
  bytes: number | null;
  error: string | null;
  attempts: Generated<number>;
  /** Null means the default price (25 dollars). */
  price_cents: number | null;
  licensing_enabled: Generated<number>;
  nft_enabled: Generated<number>;
  optimized_file_key: string | null;
  optimized_format: string | null;
  optimized_quality: number | null;
  optimized_resolution: string | null;
  optimized_width: number | null;
  optimized_height: number | null;
  optimized_bytes: number | null;
  watermark: number | null;
  social_optimized: number | null;
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_tokens: ApiTokensTable;
  auth_failures: AuthFailuresTable;
  audit_log: AuditLogTable;
  jobs: JobsTable;
  images: ImagesTable;
  stylized_images: StylizedImagesTable;
}

export type UserRow = Selectable<UsersTable>;
export type NewUserRow = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type JobRow = Selectable<JobsTable>;
export type ImageRow = Selectable<ImagesTable>;
export type StylizedImageRow = Selectable<StylizedImagesTable>;
