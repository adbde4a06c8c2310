import type { DB } from "~/infra/db.server";
import type { FileStore } from "~/infra/file-store.server";
import { removeArtifact } from "~/infra/artifact-files.server";
import { findPlatform } from "~/features/publishing/platforms";

/** A platform where a removed image could not be taken down by the product, and what to do there. */
export interface PublicationLeftUp {
  platform: string;
  name: string;
  status: string;
  url: string | null;
  what: string;
}

const WHY_LEFT: Record<string, string> = {
  liveListing:
    "its listing was created there and the product cannot delete it through the platform's API; remove it in that platform's own dashboard",
  mintKit:
    "a mint kit was handed to the creator, who mints with their own wallet; the product cannot burn or delist a token",
  exportPackage:
    "an export package was handed to the creator to upload there by hand; only the creator (or the platform) can take it down",
  sftpSubmission: "the file was submitted to the agency; ask the agency to withdraw it",
};

/**
 * Takes a stylized image down from where it was published, for a report the
 * admin upheld: queued publications are called off (`failed`, with `reason`,
 * their revision moving on so a running job records nothing over it), mint
 * kits and export packages not yet fetched are deleted and their rows end
 * `failed`; the own marketplace's row shows withdrawn with its listing. What
 * the product cannot take down through a platform's API (a live Shopify
 * product, a minted token, a package already downloaded, a file submitted to
 * an agency) is answered, platform by platform, so the creator and the admin
 * are told where it is still up.
 */
export async function withdrawPublicationsForReport(
  db: DB,
  store: FileStore,
  args: { stylizedImageId: string; reason: string; now: Date },
): Promise<PublicationLeftUp[]> {
  const rows = await db
    .selectFrom("listing_platforms")
    .select(["id", "platform", "status", "url", "artifact_key"])
    .where("stylized_image_id", "=", args.stylizedImageId)
    .execute();
  const leftUp: PublicationLeftUp[] = [];
  for (const row of rows) {
    if (row.platform === "marketplace") continue;
    const platform = findPlatform(row.platform);
    const takenDown =
      row.status === "queued" || row.status === "ready_to_mint" || row.status === "export_ready";
    if (takenDown) {
      if (row.artifact_key) await removeArtifact(store, row.artifact_key);
      await db
        .updateTable("listing_platforms")
        .set((eb) => ({
          status: "failed",
          url: null,
          artifact_key: null,
          last_error: args.reason,
          revision: eb(eb.ref("revision"), "+", 1),
          updated_at: args.now.toISOString(),
        }))
        .where("id", "=", row.id)
        .execute();
    }
    // A kit handed out may have been downloaded already; a live or submitted one is up there.
    if (
      row.status === "live" ||
      row.status === "submitted" ||
      (takenDown && row.status !== "queued")
    ) {
      leftUp.push({
        platform: row.platform,
        name: platform?.name ?? row.platform,
        status: row.status,
        url: row.status === "live" ? row.url : null,
        what: WHY_LEFT[platform?.capability ?? "liveListing"],
      });
    }
  }
  return leftUp;
}
