import { z } from "zod";
import { registerSchema } from "~/features/accounts/schemas";
import { emptyToUndefined, pageLimit } from "~/lib/page-query";

/** The Admin Portal's Create user form: the register form's fields and rules. */
export const adminCreateUserSchema = registerSchema.omit({ redirectTo: true });
export type AdminCreateUserInput = z.infer<typeof adminCreateUserSchema>;

/** The User Management search box (?q=). */
export const adminUserSearchSchema = z.object({
  q: z.string().trim().max(200, "Search at most 200 characters").optional(),
});

export const userStatusSchema = z.object({
  userId: z.string({ error: "userId is required" }).trim().min(1, "userId is required").max(200),
  action: z.enum(["ban", "unban"], { error: "action must be ban or unban" }),
});

/** The audit log's paging (GET /api/admin/audit and the portal's Audit log): `cursor` from the previous page, `limit` entries. */
export const auditQuerySchema = z.object({
  cursor: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[1-9][0-9]{0,14}$/, "Invalid cursor")
      .optional(),
  ),
  limit: z.preprocess(emptyToUndefined, pageLimit(200).optional()),
});
