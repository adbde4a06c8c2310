import { signedMediaUrl } from "~/infra/signed-urls.server";
import type { Connector } from "~/features/publishing/connectors/connector.server";
import {
  artifactImageKey,
  artifactZipKey,
  imageForKit,
  newArtifactId,
} from "~/infra/artifact-files.server";
import { buildMintKit } from "~/features/publishing/connectors/mint-kit.server";
import { LICENSE_PATH } from "~/features/publishing/types";

/** How long the image link inside a kit's metadata works. */
const KIT_IMAGE_URL_TTL_SECONDS = 365 * 24 * 60 * 60;

/**
 * NFT platforms: prepares the mint kit and reports `ready_to_mint`. Nothing is
 * sent to the platform, and nothing claims to be live there.
 */
export const mintKitConnector: Connector = {
  async publish(request, deps) {
    const image = await imageForKit(deps.store, request.image.fileKey);
    const id = newArtifactId();
    const imageKey = artifactImageKey(id, image.extension);
    await deps.store.write(imageKey, image.data);
    const kit = buildMintKit({
      platformName: request.platform.name,
      title: request.content.title,
      description: request.content.description,
      style: request.image.style,
      tags: request.content.tags,
      image: {
        ...image,
        url: `${request.origin}${signedMediaUrl(imageKey, KIT_IMAGE_URL_TTL_SECONDS, deps.now().getTime())}`,
      },
      externalUrl: request.marketplaceUrl ?? request.origin,
      licenseUrl: `${request.origin}${LICENSE_PATH}`,
      walletAddress: request.credential?.walletAddress ?? null,
      createdAt: deps.now(),
    });
    const zipKey = artifactZipKey(id);
    await deps.store.write(zipKey, kit.zip);
    return { status: "ready_to_mint", url: null, error: null, artifactKey: zipKey };
  },
};
