import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import * as x509 from "@peculiar/x509";
import { CoseAlgorithmIdentifier, type Signer } from "@trustnxt/c2pa-ts/cose";
import type { Config } from "~/infra/config.server";
import {
  pemBlocks,
  readC2paCredentials,
  signWith,
  type C2paAlgorithm,
  type C2paCredentials,
} from "~/infra/c2pa-credentials.server";
import { PRODUCT_NAME } from "~/lib/product";

/**
 * Who signs the Content Credentials: the operator's certificate and key
 * (C2PA_CERT, C2PA_KEY, checked at start by the configuration), or else a
 * certificate this server makes on its first start and keeps in
 * DATA_DIR/content-credentials.pem (decision 095).
 *
 * The self-made one is two certificates, because C2PA readers refuse a
 * self-signed certificate for signing: a root made for the purpose (its key is
 * thrown away once it has signed) and the signing certificate it issues (EC
 * P-256, digitalSignature, the emailProtection purpose C2PA asks for). Both
 * name the product and say "self-made certificate, not trusted": no reader
 * trusts the root, so a reader shows the files as unchanged since signing but
 * by a signer it cannot vouch for, until the operator sets their own.
 */

export const SELF_MADE_FILE = "content-credentials.pem";
/** A self-made signing certificate is replaced this long before it expires. */
const RENEW_BEFORE_MS = 30 * 24 * 60 * 60 * 1000;
const SELF_MADE_YEARS = 5;
export const SELF_MADE_ORGANIZATION = `${PRODUCT_NAME} self-made certificate (not trusted)`;

export interface SigningIdentity {
  /** What c2pa-ts signs a claim with. */
  signer: Signer;
  /** Made by this server, trusted by no reader; false for the operator's C2PA_CERT. */
  selfMade: boolean;
  /** The signing certificate's subject, as a reader names the signer. */
  subject: string;
  /** When the signing certificate expires. */
  validTo: Date;
}

const COSE_ALGORITHMS: Record<C2paAlgorithm, CoseAlgorithmIdentifier> = {
  ES256: CoseAlgorithmIdentifier.ES256,
  ES384: CoseAlgorithmIdentifier.ES384,
  ES512: CoseAlgorithmIdentifier.ES512,
  Ed25519: CoseAlgorithmIdentifier.Ed25519,
  PS256: CoseAlgorithmIdentifier.PS256,
};

/**
 * c2pa-ts's signer over a Node key: COSE wants an ECDSA signature as r‖s
 * (IEEE P1363), which Node gives; c2pa-ts 0.9.4's own LocalSigner encodes it
 * as ASN.1 DER, which c2pa-rs and other readers refuse.
 */
export function identityOf(credentials: C2paCredentials, selfMade: boolean): SigningIdentity {
  const [signing, ...chain] = credentials.certificates.map(
    (certificate) => new x509.X509Certificate(new Uint8Array(certificate.raw)),
  );
  return {
    signer: {
      algorithm: COSE_ALGORITHMS[credentials.algorithm],
      certificate: signing,
      chainCertificates: chain,
      sign: async (payload) => new Uint8Array(signWith(credentials, payload)),
    },
    selfMade,
    subject: credentials.certificates[0].subject,
    validTo: new Date(credentials.certificates[0].validTo),
  };
}

type IdentityConfig = Pick<Config, "dataDir" | "C2PA_CERT" | "C2PA_KEY">;

const identities = new Map<string, Promise<SigningIdentity>>();

/**
 * The identity files are signed with, made once per data directory and
 * certificate and kept for the process (a self-made one is read from
 * DATA_DIR, or made and written there the first time).
 */
export function signingIdentity(config: IdentityConfig): Promise<SigningIdentity> {
  const key = `${config.dataDir}\n${config.C2PA_CERT ?? ""}`;
  let identity = identities.get(key);
  if (!identity) {
    identity = loadIdentity(config);
    identities.set(key, identity);
    identity.catch(() => identities.delete(key));
  }
  return identity;
}

async function loadIdentity(config: IdentityConfig): Promise<SigningIdentity> {
  if (config.C2PA_CERT && config.C2PA_KEY)
    return identityOf(readC2paCredentials(config.C2PA_CERT, config.C2PA_KEY), false);
  return identityOf(await selfMadeCredentials(config.dataDir), true);
}

/**
 * The self-made certificate kept in `dataDir`, made (and written, 0600) when
 * there is none or it is about to expire. Two processes starting at once on
 * one volume keep one: the file appears whole or not at all (written aside,
 * then linked into place), and the second takes the first's.
 */
export async function selfMadeCredentials(
  dataDir: string,
  now: Date = new Date(),
): Promise<C2paCredentials> {
  const file = path.join(dataDir, SELF_MADE_FILE);
  const existing = readSelfMade(file, now);
  if (
    existing &&
    new Date(existing.certificates[0].validTo).getTime() - now.getTime() > RENEW_BEFORE_MS
  )
    return existing;
  const pem = await makeSelfMadePem(now);
  const aside = `${file}.${process.pid}.${crypto.randomBytes(4).toString("hex")}`;
  fs.writeFileSync(aside, pem, { mode: 0o600, flag: "wx" });
  try {
    if (existing) fs.renameSync(aside, file);
    else {
      try {
        fs.linkSync(aside, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      }
    }
  } finally {
    fs.rmSync(aside, { force: true });
  }
  const kept = readSelfMade(file, now);
  if (!kept) throw new Error(`${file} holds no usable certificate and key`);
  return kept;
}

/** The credentials in the self-made file; undefined when there is none (or it cannot sign any more). */
function readSelfMade(file: string, now: Date): C2paCredentials | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const [key] = pemBlocks(text, "PRIVATE KEY");
  const certificates = pemBlocks(text, "CERTIFICATE").join("\n");
  if (!key || !certificates) return undefined;
  try {
    return readC2paCredentials(certificates, key, now);
  } catch {
    return undefined;
  }
}

/** A new self-made root and signing certificate, with the signing key: one PEM text (key, signing certificate, root). */
export async function makeSelfMadePem(now: Date = new Date()): Promise<string> {
  const webcrypto = crypto.webcrypto as unknown as Crypto;
  x509.cryptoProvider.set(webcrypto);
  const algorithm = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const notBefore = new Date(now.getTime() - 60 * 60 * 1000);
  const notAfter = new Date(now);
  notAfter.setUTCFullYear(notAfter.getUTCFullYear() + SELF_MADE_YEARS);
  const serial = () =>
    crypto
      .randomBytes(16)
      .toString("hex")
      .replace(/^[89a-f]/, "1");
  const rootKeys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const root = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=${PRODUCT_NAME} self-made root, O=${SELF_MADE_ORGANIZATION}`,
    notBefore,
    notAfter,
    keys: rootKeys,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(rootKeys.publicKey),
    ],
  });
  const signingKeys = await webcrypto.subtle.generateKey(algorithm, true, ["sign", "verify"]);
  const signing = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${PRODUCT_NAME} content signer, O=${SELF_MADE_ORGANIZATION}`,
    issuer: root.subject,
    notBefore,
    notAfter,
    signingKey: rootKeys.privateKey,
    publicKey: signingKeys.publicKey,
    signingAlgorithm: algorithm,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.emailProtection], false),
      await x509.SubjectKeyIdentifierExtension.create(signingKeys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(root, false),
    ],
  });
  const key = crypto.KeyObject.from(signingKeys.privateKey as unknown as crypto.webcrypto.CryptoKey)
    .export({ type: "pkcs8", format: "pem" })
    .toString();
  return [key.trim(), signing.toString("pem"), root.toString("pem"), ""].join("\n");
}
