import { z } from "zod";
import { defineProcedure } from "~/infra/procedure.server";
import { forbidden, notFound } from "~/infra/errors.server";
import { findPlatform } from "~/features/publishing/platforms";
import type { Platform } from "~/features/publishing/platforms";
import {
  findPublication,
  verifyPublicationDownload,
} from "~/features/publishing/publications/publications.server";

/** GET /api/publications/{id}/download?exp&sig: the owner's kit or package, through a signed, expiring link. */
export const publicationDownload = defineProcedure({
  name: "publicationDownload",
  access: "user",
  // exp and sig are the signed link's query parameters; a missing or malformed one fails the signature check (403).
  input: z.object({
    id: z.string().trim().min(1).max(100),
    exp: z.string().optional(),
    sig: z.string().optional(),
  }),
  async run({ input, user, ctx }) {
    const row = await findPublication(ctx.db, user.id, input.id);
    if (
      !row ||
      !row.artifact_key ||
      (row.status !== "ready_to_mint" && row.status !== "export_ready")
    ) {
      throw notFound("Download not found");
    }
    if (
      !verifyPublicationDownload(
        input.id,
        user.id,
        { exp: input.exp, sig: input.sig },
        ctx.now.getTime(),
      )
    ) {
      throw forbidden("This download link is invalid or has expired");
    }
    const store = ctx.files;
    if (!(await store.exists(row.artifact_key))) throw notFound("Download not found");
    const platform: Platform | undefined = findPlatform(row.platform);
    const kind = row.status === "ready_to_mint" ? "mint-kit" : "export-package";
    const slug =
      row.title
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, "-")
        .replace(/^-+|-+$/g, "")
        .slice(0, 40) || "image";
    return {
      row,
      fileName: `${slug}-${platform?.id ?? "platform"}-${kind}.zip`,
      size: await store.size(row.artifact_key),
      stream: () => store.stream(row.artifact_key!),
    };
  },
});
