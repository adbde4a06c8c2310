import crypto from "node:crypto";
import { JPEG, PNG, type Asset } from "@trustnxt/c2pa-ts/asset";
import type { Claim } from "@trustnxt/c2pa-ts/manifest";
import {
  ActionAssertion,
  ClaimVersion,
  DataHashAssertion,
  IngredientAssertion,
  ManifestStore,
  RelationshipType,
} from "@trustnxt/c2pa-ts/manifest";
import { SuperBox } from "@trustnxt/c2pa-ts/jumbf";
import type { IBox } from "@trustnxt/c2pa-ts/jumbf";
import type { Config } from "~/infra/config.server";
import { PRODUCT_NAME } from "~/lib/product";
import {
  creatorToolOfFile,
  digitalSourceTypeOfFile,
  isGenerativeSourceType,
} from "~/engines/styling/ai-disclosure.server";
import {
  signingIdentity,
  type SigningIdentity,
} from "~/engines/provenance/signing-identity.server";
import { WebPAsset } from "~/engines/provenance/webp-asset.mjs";

/**
 * Content Credentials: the C2PA manifest every styled file, optimized copy and
 * purchased download carries (decision 095), built and signed with
 * @trustnxt/c2pa-ts (pure TypeScript; WebP's container through webp-asset.mjs)
 * and embedded in the file. The manifest says:
 *
 * - how the file was made: a `c2pa.created` action with the IPTC digital
 *   source type the file's own XMP states (`trainedAlgorithmicMedia` for fal.ai,
 *   `composite` for the local engine; see ai-disclosure.server.ts), the tool
 *   that made it and when; an optimized copy adds a `c2pa.edited` action
 *   saying what the optimization did;
 * - the uploaded photo as an ingredient by its SHA-256 only (its `instanceID`,
 *   `sha256:<hex>`): no thumbnail, no title of the person's, no copy;
 * - the product as the claim generator.
 *
 * A re-encoded copy (any re-save) loses the manifest, as C2PA intends: its
 * hash binds it to these exact bytes.
 */

/** What a file's manifest says of it. */
export interface ManifestFacts {
  /** The IPTC digital source type URI the file's XMP states. */
  digitalSourceType: string;
  /** The tool that made the image (the XMP's CreatorTool). */
  softwareAgent: string;
  /** When the file was made. */
  when: Date;
  /** The uploaded photo it was made from, by hash only; null when unknown (a file made before manifests). */
  original: OriginalIngredient | null;
  /** For an optimized copy: what the optimization did, one sentence. */
  edited?: string;
}

export interface OriginalIngredient {
  /** SHA-256 of the uploaded file, lowercase hex. */
  sha256: string;
  /** Its media type (image/jpeg, image/png). */
  mimeType: string;
}

/** The signing service the file producers are handed. */
export interface ContentCredentials {
  /** The same JPEG, PNG or WebP image with its signed manifest embedded. */
  sign(bytes: Buffer, facts: ManifestFacts): Promise<Buffer>;
}

/** The service signing with this configuration's identity (C2PA_CERT, or the self-made certificate in DATA_DIR). */
export function contentCredentialsFor(
  config: Pick<Config, "dataDir" | "C2PA_CERT" | "C2PA_KEY">,
): ContentCredentials {
  return {
    sign: async (bytes, facts) => signImage(bytes, facts, await signingIdentity(config)),
  };
}

/** The media type of a file the manifests are written into, by its first bytes. */
export function mimeTypeOf(bytes: Uint8Array): "image/jpeg" | "image/png" | "image/webp" | null {
  if (JPEG.canRead(bytes)) return "image/jpeg";
  if (PNG.canRead(bytes)) return "image/png";
  if (WebPAsset.canRead(bytes)) return "image/webp";
  return null;
}

/** The file as a c2pa-ts asset (throws on a damaged file); undefined for another format. */
export function assetOf(bytes: Uint8Array): Asset | undefined {
  switch (mimeTypeOf(bytes)) {
    case "image/jpeg":
      return new JPEG(bytes);
    case "image/png":
      return new PNG(bytes);
    case "image/webp":
      return new WebPAsset(bytes);
    default:
      return undefined;
  }
}

export const sha256Of = (bytes: Uint8Array) =>
  crypto.createHash("sha256").update(bytes).digest("hex");

/** The uploaded photo as an ingredient of what is made from it: its hash and type. */
export function originalIngredient(bytes: Uint8Array): OriginalIngredient {
  return { sha256: sha256Of(bytes), mimeType: mimeTypeOf(bytes) ?? "application/octet-stream" };
}

/**
 * The facts of a styled file, from the disclosure its engine wrote in its XMP
 * (the digital source type and the tool), so the manifest and the XMP say the
 * same; made `when` from `original`.
 */
export function styledFileFacts(
  bytes: Buffer,
  args: { original: OriginalIngredient | null; when: Date },
): ManifestFacts {
  return {
    digitalSourceType: digitalSourceTypeOfFile(bytes),
    softwareAgent: creatorToolOfFile(bytes) ?? PRODUCT_NAME,
    when: args.when,
    original: args.original,
  };
}

/** Actions v2 with what c2pa-ts 0.9.4 does not write itself: each action's `when` and `description`. */
class DescribedActions extends ActionAssertion {
  constructor(private readonly extras: { when: string; description?: string }[]) {
    super();
  }

  generateJUMBFBoxForContent(claim: Claim): IBox {
    const box = super.generateJUMBFBoxForContent(claim) as IBox & { content: unknown };
    const content = box.content as { actions: Record<string, unknown>[] };
    content.actions.forEach((action, index) => {
      const extra = this.extras[index];
      if (!extra) return;
      action.when = extra.when;
      if (extra.description) action.description = extra.description;
    });
    return box;
  }
}

/** Room c2pa-ts keeps for the signature (its default keeps 25 kB for timestamps, which are not used). */
const SIGNATURE_PADDING = 1024;

/** The image with a new signed manifest (any earlier one replaced). Throws for a format other than JPEG, PNG or WebP. */
export async function signImage(
  bytes: Buffer,
  facts: ManifestFacts,
  identity: SigningIdentity,
): Promise<Buffer> {
  const mimeType = mimeTypeOf(bytes);
  const asset = assetOf(bytes);
  if (!asset || !mimeType)
    throw new Error("Content Credentials are written into JPEG, PNG and WebP files only");
  const store = new ManifestStore();
  const manifest = store.createManifest({
    claimVersion: ClaimVersion.V2,
    assetFormat: mimeType,
    instanceID: `xmp:iid:${crypto.randomUUID()}`,
    defaultHashAlgorithm: "SHA-256",
    signer: identity.signer,
  });
  manifest.claim!.claimGeneratorName = PRODUCT_NAME;
  manifest.claim!.claimGeneratorVersion = undefined;
  manifest.signature!.signatureData.paddingLength = SIGNATURE_PADDING;

  const generative = isGenerativeSourceType(facts.digitalSourceType);
  let ingredient: IngredientAssertion | undefined;
  if (facts.original) {
    // The photo went into a generative model (inputTo), or its pixels are a part of the composite (componentOf).
    ingredient = IngredientAssertion.createV3(
      generative ? RelationshipType.InputTo : RelationshipType.ComponentOf,
    );
    ingredient.title = "Uploaded photo";
    ingredient.format = facts.original.mimeType;
    ingredient.instanceID = `sha256:${facts.original.sha256}`;
    ingredient.description =
      "The photo the creator uploaded, named by its SHA-256 only: no copy or thumbnail of it is in this file.";
    manifest.addAssertion(ingredient);
  }
  const when = facts.when.toISOString();
  const actions = new DescribedActions([
    { when },
    ...(facts.edited ? [{ when, description: facts.edited }] : []),
  ]);
  actions.actions.push({
    action: "c2pa.created" as never,
    digitalSourceType: facts.digitalSourceType as never,
    softwareAgent: { name: facts.softwareAgent },
    ...(ingredient
      ? { parameters: { ingredients: [manifest.createAssertionReference(ingredient)] } }
      : {}),
  });
  if (facts.edited)
    actions.actions.push({ action: "c2pa.edited" as never, softwareAgent: { name: PRODUCT_NAME } });
  manifest.addAssertion(actions);
  const hash = DataHashAssertion.create("SHA-256");
  manifest.addAssertion(hash);

  await asset.ensureManifestSpace(store.measureSize());
  await hash.updateWithAsset(asset);
  await manifest.sign(identity.signer);
  await asset.writeManifestJUMBF(store.getBytes());
  const signed = await asset.getDataRange();
  return Buffer.from(signed.buffer, signed.byteOffset, signed.byteLength);
}

/** Whether the file carries a C2PA manifest store (not whether it validates). False for a file that cannot be read. */
export function carriesContentCredentials(bytes: Uint8Array): boolean {
  try {
    return assetOf(bytes)?.getManifestJUMBF() !== undefined;
  } catch {
    return false;
  }
}

/**
 * The uploaded photo named in one of our own files' manifest (a styled file,
 * which an optimized copy is made from), or null. For files this server
 * stored: the public check reads untrusted files apart from the server
 * (credentials-check.server.ts).
 */
export function originalIngredientIn(bytes: Uint8Array): OriginalIngredient | null {
  try {
    const jumbf = assetOf(bytes)?.getManifestJUMBF();
    if (!jumbf) return null;
    const box = SuperBox.fromBuffer(jumbf as Uint8Array<ArrayBuffer>);
    const manifest = ManifestStore.read(box).getActiveManifest();
    for (const assertion of manifest?.assertions?.assertions ?? []) {
      if (!(assertion instanceof IngredientAssertion)) continue;
      const found = /^sha256:([0-9a-f]{64})$/.exec(assertion.instanceID ?? "");
      if (found)
        return { sha256: found[1], mimeType: assertion.format ?? "application/octet-stream" };
    }
    return null;
  } catch {
    return null;
  }
}
