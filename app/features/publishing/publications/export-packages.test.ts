import sharp from "sharp";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { getConfig } from "~/infra/config.server";
import { getFileStore, newFileKey } from "~/infra/file-store.server";
import type { JobWorker } from "~/infra/jobs/job-worker.server";
import { DIGITAL_SOURCE_TYPES, disclosureXmp } from "~/engines/styling/ai-disclosure.server";
import { readZip } from "~/features/publishing/connectors/zip-archive.server";
import { startPublishWorker } from "#tests/setup/publish-worker";
import { callRoute, makeRequest } from "#tests/setup/requests";
import { createTestUser } from "#tests/setup/accounts";
import { createStylizedImage } from "#tests/setup/market";
import { fixture } from "#tests/setup/studio";
import { apiRoute } from "#tests/setup/api-routes";
import { updateWhere } from "#tests/setup/update-where";

const launch = apiRoute("/api/marketplace/launch");
const download = apiRoute("/api/publications/{id}/download");

/**
 * The export package a stock site gets (EyeEm here), made by the publish job:
 * whether it calls the image AI generated follows the digital source type the
 * styled file declares (the engine that made it), never a fixed "Yes"; and
 * its price column is in the platform's currency (CURRENCY), whatever it is.
 */

let worker: JobWorker;
const currencyBefore = getConfig().CURRENCY;

beforeAll(() => {
  worker = startPublishWorker();
});
afterEach(() => {
  getConfig().CURRENCY = currencyBefore;
});
afterAll(async () => {
  await worker.stop();
});

/** A completed style whose file is as `provider`'s engine writes it (its digital source type in the XMP). */
async function styleMadeBy(userId: string, provider: "local" | "fal") {
  const stylized = await createStylizedImage(userId, { style: "cartoon" });
  const key = newFileKey("styled", "jpg");
  await getFileStore().write(
    key,
    await sharp(fixture("portrait.png"))
      .resize(640, 640)
      .jpeg({ quality: 90 })
      .withXmp(disclosureXmp(`${provider} test`, DIGITAL_SOURCE_TYPES[provider]))
      .toBuffer(),
  );
  await updateWhere(
    "stylized_images",
    { file_key: key, provider, width: 640, height: 640 },
    "id",
    stylized.id,
  );
  return stylized;
}

/** Launches the image on EyeEm (the job runs) and answers the package's files by name. */
async function packageFor(auth: { token: string }, imageId: string) {
  const response = await callRoute(
    launch.action,
    makeRequest("/api/marketplace/launch", {
      token: auth.token,
      json: { imageId, title: "Cartoon Ada", price: "42.5", tags: "ada", platforms: ["eyeem"] },
    }),
  );
  expect(response.status).toBe(200);
  const [eyeem] = (await response.json()).platforms as {
    status: string;
    downloadUrl: string;
    publicationId: string;
  }[];
  expect(eyeem.status).toBe("export_ready");
  const url = new URL(eyeem.downloadUrl);
  const zip = await callRoute(
    download.loader,
    makeRequest(url.pathname + url.search, { token: auth.token }),
    { id: eyeem.publicationId },
  );
  expect(zip.status).toBe(200);
  const entries = readZip(Buffer.from(await zip.arrayBuffer()));
  const text = (name: string) =>
    entries.find((entry) => entry.name === name)!.data.toString("utf8");
  const [header, row] = text("metadata.csv").trim().split("\r\n");
  const cells = (line: string) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]);
  const csv = Object.fromEntries(cells(header).map((name, i) => [name, cells(row)[i]]));
  const xmp = (
    await sharp(entries.find((entry) => entry.name.endsWith(".jpg"))!.data).metadata()
  ).xmp!.toString("utf8");
  const keywords = [
    ...(/<dc:subject><rdf:Bag>(.*?)<\/rdf:Bag>/.exec(xmp)?.[1] ?? "").matchAll(
      /<rdf:li>([^<]*)<\/rdf:li>/g,
    ),
  ].map((match) => match[1]);
  return { csv, header, keywords, xmp, readme: text("README.txt") };
}

describe("the export package of a stock site", () => {
  it("calls a local-engine style what it is (a composite, not AI generated) and a fal.ai style AI generated, priced in CURRENCY", async () => {
    getConfig().CURRENCY = "eur";
    const ada = await createTestUser({ firstName: "Ada", lastName: "Lovelace" });

    const local = await packageFor(ada, (await styleMadeBy(ada.user.id, "local")).id);
    expect(local.xmp).toContain(`Iptc4xmpExt:DigitalSourceType="${DIGITAL_SOURCE_TYPES.local}"`);
    expect(local.keywords).toEqual(["ada", "Cartoon", "portrait", "selfie"]);
    expect(local.csv).toMatchObject({
      "AI Generated": "No",
      "Digital Source Type": "composite",
      Keywords: "ada, Cartoon, portrait, selfie",
      "Price (EUR)": "42.50",
    });
    expect(local.header).not.toContain("USD");
    expect(local.readme).toContain("IPTC Digital Source Type: composite");
    expect(local.readme).toContain("Do not mark it as AI generated");

    const fal = await packageFor(ada, (await styleMadeBy(ada.user.id, "fal")).id);
    expect(fal.xmp).toContain(`Iptc4xmpExt:DigitalSourceType="${DIGITAL_SOURCE_TYPES.fal}"`);
    expect(fal.keywords).toEqual(["ada", "Cartoon", "AI generated", "portrait", "selfie"]);
    expect(fal.csv).toMatchObject({
      "AI Generated": "Yes",
      "Digital Source Type": "trainedAlgorithmicMedia",
      "Price (EUR)": "42.50",
    });
    expect(fal.readme).toContain("mark it as AI generated");
  });
});
