import { describe, expect, it } from "vitest";
import { getDb } from "~/infra/db.server";
import { getFileStore, newFileKey } from "~/infra/file-store.server";
import { newId } from "~/infra/ids.server";
import { publicMediaUrl, signedMediaUrl } from "~/infra/signed-urls.server";
import { publicationDownloadUrl } from "~/features/publishing/publications/publications.server";
import { loader as mediaRoute } from "~/routes/_resources+/media.$";
import { loader as downloadRoute } from "~/routes/_resources+/downloads.$token";
import { callRoute, makeRequest, ORIGIN } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createListing } from "#tests/setup/market";
import { apiRoute } from "#tests/setup/api-routes";
import { openTestCheckout, payTestCheckout, paymentStatusOf } from "#tests/setup/test-checkout";

const { loader: publicationDownloadRoute } = apiRoute("/api/publications/{id}/download");

const CORP = "Cross-Origin-Resource-Policy";

async function media(url: string) {
  const parsed = new URL(url, ORIGIN);
  return callRoute(mediaRoute, makeRequest(parsed.pathname + parsed.search), {
    "*": parsed.pathname.replace("/media/", ""),
  });
}

describe("Cross-Origin-Resource-Policy", () => {
  it("keeps private files and purchased downloads to this site, and lets public previews be embedded anywhere", async () => {
    const creator = await createTestUser();
    const { listing, stylized } = await createListing(creator.user.id);

    const own = await media(signedMediaUrl(stylized.file_key!));
    expect(own.status).toBe(200);
    expect(own.headers.get(CORP)).toBe("same-origin");
    const preview = await media(publicMediaUrl(listing.preview_key));
    expect(preview.status).toBe(200);
    expect(preview.headers.get(CORP)).toBe("cross-origin");

    const sessionId = await openTestCheckout([listing.id], {
      name: "Bea",
      email: "bea@example.com",
    });
    await payTestCheckout(sessionId);
    const status = await (await paymentStatusOf(sessionId)).json();
    const token = status.downloads[0].downloadUrl.split("/").pop();
    for (const method of ["HEAD", "GET"]) {
      const download = await callRoute(
        downloadRoute,
        makeRequest(`/downloads/${token}`, { method }),
        { token },
      );
      expect(download.status, method).toBe(200);
      expect(download.headers.get(CORP), method).toBe("same-origin");
    }
  });

  it("keeps a publication's kit to this site", async () => {
    const owner = await createTestUser();
    const { stylized } = await createListing(owner.user.id);
    const artifactKey = newFileKey("kits", "zip");
    await getFileStore().write(artifactKey, Buffer.from("PK\u0005\u0006".padEnd(22, "\u0000")));
    const now = new Date().toISOString();
    const row = await getDb()
      .insertInto("listing_platforms")
      .values({
        id: newId(),
        user_id: owner.user.id,
        stylized_image_id: stylized.id,
        listing_id: null,
        platform: "opensea",
        status: "ready_to_mint",
        title: "Kit",
        price_cents: 2500,
        artifact_key: artifactKey,
        url: null,
        last_error: null,
        external_id: null,
        created_at: now,
        updated_at: now,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    const url = new URL(publicationDownloadUrl(ORIGIN, row));
    const kit = await callRoute(
      publicationDownloadRoute,
      makeRequest(url.pathname + url.search, { token: owner.token }),
      { id: row.id },
    );
    expect(kit.status).toBe(200);
    expect(kit.headers.get(CORP)).toBe("same-origin");
  });
});
