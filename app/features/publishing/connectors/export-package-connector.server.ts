import type { Connector } from "~/features/publishing/connectors/connector.server";
import { artifactZipKey, newArtifactId } from "~/infra/artifact-files.server";
import { buildExportPackage } from "~/features/publishing/connectors/export-package.server";

/**
 * Stock and photo platforms: prepares the export package and reports
 * `export_ready`. The creator uploads it; nothing claims to be live there.
 */
export const exportPackageConnector: Connector = {
  async publish(request, deps) {
    const source = await deps.store.read(request.image.fileKey);
    const pack = await buildExportPackage({
      platformName: request.platform.name,
      title: request.content.title,
      description: request.content.description,
      style: request.image.style,
      tags: request.content.tags,
      creatorName: request.creator.name,
      priceCents: request.content.priceCents,
      currency: request.currency,
      source,
      createdAt: deps.now(),
    });
    const zipKey = artifactZipKey(newArtifactId());
    await deps.store.write(zipKey, pack.zip);
    return { status: "export_ready", url: null, error: null, artifactKey: zipKey };
  },
};
