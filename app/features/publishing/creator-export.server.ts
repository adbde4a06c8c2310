import type { DB } from "~/infra/db.server";
import { artifactKeys } from "~/infra/artifact-files.server";
import { keyExtension, type ExportedFile } from "~/lib/exported-files";
import { findPlatform } from "~/features/publishing/platforms";

/**
 * The creator's own publishing data for their data export: the platforms they
 * connected, with the wallet address, shop or account name they gave and
 * when (never a key, password or token: the sealed secrets stay sealed), and the files prepared for them (mint kits and
 * export packages, with a kit's image), and the model releases (what each
 * says, and its PDF under releases/).
 */
export interface CreatorPublishingExport {
  integrations: Array<{
    platform: string;
    walletAddress: string | null;
    shopDomain: string | null;
    accountName: string | null;
    connectedAt: string;
  }>;
  modelReleases: Array<{
    stylizedImageId: string;
    kind: string;
    modelName: string | null;
    signedOn: string | null;
    signature: string | null;
    drawnSignature: boolean;
    awaitingPhotographer: boolean;
    createdAt: string;
    file: string;
  }>;
  files: ExportedFile[];
}

export async function creatorPublishingExport(
  db: DB,
  userId: string,
): Promise<CreatorPublishingExport> {
  const [integrations, publications, releases] = await Promise.all([
    db
      .selectFrom("integrations")
      .select(["platform", "wallet_address", "shop_domain", "account_name", "created_at"])
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("listing_platforms")
      .select(["id", "artifact_key"])
      .where("user_id", "=", userId)
      .where("artifact_key", "is not", null)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("model_releases")
      .selectAll()
      .where("user_id", "=", userId)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
  ]);
  const files: ExportedFile[] = [];
  for (const publication of publications) {
    for (const key of artifactKeys(publication.artifact_key ?? "")) {
      files.push({
        key,
        name: `kits/${publication.id}.${keyExtension(key)}`,
        optional: key !== publication.artifact_key,
      });
    }
  }
  const modelReleases = releases.map((release) => {
    const name = `releases/${release.stylized_image_id}.pdf`;
    files.push({ key: release.file_key, name });
    return {
      stylizedImageId: release.stylized_image_id,
      kind: release.kind,
      modelName: release.model_name,
      signedOn: release.signed_on,
      signature: release.signature,
      drawnSignature: release.drawn_signature === 1,
      awaitingPhotographer: release.awaiting_photographer === 1,
      createdAt: release.created_at,
      file: name,
    };
  });
  return {
    integrations: integrations.map((integration) => ({
      platform: findPlatform(integration.platform)?.name ?? integration.platform,
      walletAddress: integration.wallet_address,
      shopDomain: integration.shop_domain,
      accountName: integration.account_name,
      connectedAt: integration.created_at,
    })),
    modelReleases,
    files,
  };
}
