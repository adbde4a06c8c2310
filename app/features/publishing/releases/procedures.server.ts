import { z } from "zod";
import type { UserRow } from "#db/schema";
import { defineProcedure } from "~/infra/procedure.server";
import type { CallContext } from "~/infra/call-context.server";
import { badRequest, notFound } from "~/infra/errors.server";
import { signedMediaUrl } from "~/infra/signed-urls.server";
import { ensureFreeSpace } from "~/infra/disk-space.server";
import { modelReleaseFields, modelReleaseRules } from "~/features/publishing/schemas";
import {
  findModelRelease,
  modelReleaseJson,
  signModelRelease,
} from "~/features/publishing/releases/model-releases.server";
import { receiveReleaseUpload } from "~/features/publishing/releases/release-upload.server";
import { nativeSize } from "~/features/publishing/publications/stock-readiness.server";
import { stockSizeRefusal } from "~/features/publishing/connectors/stock-submission.server";
import {
  completedImage,
  ownImage,
} from "~/features/publishing/publications/platform-publishing.server";

// Model releases: the creator's signed release for an image, which stock agencies need.

export { RELEASE_FIELD } from "~/features/publishing/releases/release-upload.server";

const imageIdInput = z.object({ id: z.string().trim().min(1).max(100) });

/** One of the caller's own stylized images (404 otherwise) and its model release, if it has one. */
async function ownImageWithRelease(ctx: CallContext, user: UserRow, imageId: string) {
  const image = await ownImage(ctx, user, imageId);
  return { image, release: await findModelRelease(ctx.db, user.id, image.id) };
}

/**
 * The release page: the image's model release (null until there is one), whether Adobe
 * Stock would take the image's size, and what the form starts from.
 */
export const modelReleaseState = defineProcedure({
  name: "modelReleaseState",
  access: "user",
  input: imageIdInput,
  async run({ input, user, ctx }) {
    const { image, release } = await ownImageWithRelease(ctx, user, input.id);
    const ready = image.status === "completed" && Boolean(image.file_key);
    return {
      imageId: image.id,
      style: image.style,
      ready,
      previewUrl: ready ? signedMediaUrl(image.file_key!) : null,
      release: release ? modelReleaseJson(release) : null,
      /** Why Adobe Stock would refuse the image's size (null when it is big enough). */
      sizeRefusal: ready ? stockSizeRefusal(nativeSize(image)) : null,
      suggestedName: [user.first_name, user.last_name].filter(Boolean).join(" "),
      suggestedEmail: user.email,
      today: ctx.now.toISOString().slice(0, 10),
    };
  },
});

/**
 * POST /api/token-stylized-images/{id}/model-release and the release page's form: the creator
 * signs a release for themselves (schemas.ts: what it asks, an adult model, a photographer).
 */
export const signModelReleaseProcedure = defineProcedure({
  name: "signModelRelease",
  access: "user",
  input: modelReleaseFields.extend(imageIdInput.shape).superRefine(modelReleaseRules),
  async run({ input, user, ctx }) {
    const image = await completedImage(ctx, user, input.id);
    const today = ctx.now.toISOString().slice(0, 10);
    const future: Record<string, string[]> = {};
    if (input.shootDate > today)
      future.shootDate = ["The date the photo was taken cannot be in the future"];
    if (input.signedOn > today) future.signedOn = ["The date signed cannot be in the future"];
    const [first] = Object.values(future);
    if (first) throw badRequest(first[0], future);
    await ensureFreeSpace(ctx.config);
    const { id: _id, confirm: _confirm, selfTaken, photographerName, ...release } = input;
    const row = await signModelRelease(ctx.db, ctx.files, {
      userId: user.id,
      accountEmail: user.email,
      image,
      // A self-portrait names no other photographer (a name typed beside the ticked box is not used).
      input: { ...release, photographerName: selfTaken ? null : (photographerName ?? null) },
      now: ctx.now,
    });
    return modelReleaseJson(row);
  },
});

/** PUT /api/token-stylized-images/{id}/model-release (multipart, a PDF in the field `release`) and the release page's upload form. */
export const uploadModelRelease = defineProcedure({
  name: "uploadModelRelease",
  access: "user",
  input: imageIdInput,
  async run({ input, user, ctx }) {
    if (!ctx.upload)
      throw new Error("uploadModelRelease is called with the request body (ctx.upload)");
    const image = await completedImage(ctx, user, input.id);
    const row = await receiveReleaseUpload(ctx.db, ctx.files, ctx.config, {
      userId: user.id,
      image,
      upload: ctx.upload,
      now: ctx.now,
    });
    return modelReleaseJson(row);
  },
});

/** GET /api/token-stylized-images/{id}/model-release: the release's PDF, for its owner only. */
export const modelReleaseDownload = defineProcedure({
  name: "modelReleaseDownload",
  access: "user",
  input: imageIdInput,
  async run({ input, user, ctx }) {
    const { image, release } = await ownImageWithRelease(ctx, user, input.id);
    const store = ctx.files;
    if (!release || !(await store.exists(release.file_key)))
      throw notFound("This image has no model release yet");
    return {
      fileName: `model-release-${image.id.replace(/[^A-Za-z0-9_-]/g, "")}.pdf`,
      size: await store.size(release.file_key),
      stream: () => store.stream(release.file_key),
    };
  },
});
