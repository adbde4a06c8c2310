import { z } from "zod";
import { registerSchema } from "~/features/accounts/schemas";

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

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

/** The audit log's paging (GET /api/admin/audit and the portal's Audit log): `cursor` from the previous page, `limit` entries. */
export const auditQuerySchema = z.object({
  cursor: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[1-9][0-9]{0,14}$/, "Invalid cursor")
      .optional(),
  ),
  limit: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number("limit must be a number")
      .int("limit must be a whole number")
      .min(1, "limit must be at least 1")
      .max(200, "limit is at most 200")
      .optional(),
  ),
});
