import { parseWithZod } from "@conform-to/zod/v4";
import { adminCreateUserSchema } from "./admin-schemas";
import { loginSchema, registerSchema } from "./auth-schemas";
import { customerInfoSchema } from "./checkout-schema";
import { listingInputSchema } from "./listing-schema";
import { launchSchema, manualIntegrationSchema, postSchema } from "./publishing-schemas";

/**
 * The forms' client-side validation: the same zod schemas the server parses
 * with, in one module that pages load after they render
 * (components/forms/use-deferred-validation.ts), so zod is not part of any
 * page's first download. Until it arrives, the server validates.
 */
export const clientValidators = {
  adminCreateUser: (formData: FormData) =>
    parseWithZod(formData, { schema: adminCreateUserSchema }),
  login: (formData: FormData) => parseWithZod(formData, { schema: loginSchema }),
  register: (formData: FormData) => parseWithZod(formData, { schema: registerSchema }),
  customerInfo: (formData: FormData) => parseWithZod(formData, { schema: customerInfoSchema }),
  listingInput: (formData: FormData) => parseWithZod(formData, { schema: listingInputSchema }),
  launch: (formData: FormData) => parseWithZod(formData, { schema: launchSchema }),
  post: (formData: FormData) => parseWithZod(formData, { schema: postSchema }),
  manualIntegration: (formData: FormData) =>
    parseWithZod(formData, { schema: manualIntegrationSchema }),
};

export type ClientValidators = typeof clientValidators;
