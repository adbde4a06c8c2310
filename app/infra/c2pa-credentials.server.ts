import crypto from "node:crypto";

/**
 * The operator's Content Credentials signing certificate and key (C2PA_CERT,
 * C2PA_KEY: PEM), read with Node's crypto. The configuration checks them at
 * start (a key that is not the certificate's, an expired certificate or a key
 * no C2PA algorithm takes stops the start with a sentence); the signing
 * service (app/engines/provenance/) signs with what this answers.
 */

/** The C2PA signature algorithms this server signs with, by the key's type. */
export type C2paAlgorithm = "ES256" | "ES384" | "ES512" | "Ed25519" | "PS256";

export interface C2paCredentials {
  /** The signing certificate first, then the rest of the chain as given (intermediates; a root is allowed). */
  certificates: crypto.X509Certificate[];
  key: crypto.KeyObject;
  algorithm: C2paAlgorithm;
}

/** A problem with the credentials: the settings it names and a sentence for the operator. */
export class C2paCredentialsProblem extends Error {
  constructor(message: string) {
    super(message);
    this.name = "C2paCredentialsProblem";
  }
}

/** A PEM value as an environment variable may carry it: with real line breaks, or `\n` written out. */
export function normalizePem(value: string): string {
  return value.replace(/\\n/g, "\n").replace(/\r\n/g, "\n").trim();
}

/** The PEM blocks of `text` labelled `label` (e.g. CERTIFICATE), in order, each as its whole block. */
export function pemBlocks(text: string, label: string): string[] {
  const pattern = new RegExp(`-----BEGIN ${label}-----[\\s\\S]*?-----END ${label}-----`, "g");
  return text.match(pattern) ?? [];
}

const CURVE_ALGORITHMS: Record<string, C2paAlgorithm> = {
  prime256v1: "ES256",
  secp384r1: "ES384",
  secp521r1: "ES512",
};

/** The algorithm a key signs C2PA claims with, or what the key is when none takes it. */
function algorithmOf(key: crypto.KeyObject): { algorithm: C2paAlgorithm } | { refused: string } {
  const type = key.asymmetricKeyType;
  if (type === "ec") {
    const curve = key.asymmetricKeyDetails?.namedCurve ?? "unknown";
    const algorithm = CURVE_ALGORITHMS[curve];
    return algorithm ? { algorithm } : { refused: `an EC key on the curve ${curve}` };
  }
  if (type === "ed25519") return { algorithm: "Ed25519" };
  if (type === "rsa" || type === "rsa-pss") {
    const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
    return bits >= 2048 ? { algorithm: "PS256" } : { refused: `an RSA key of ${bits} bits` };
  }
  return { refused: `a key of type ${type ?? "unknown"}` };
}

/**
 * Reads the certificate chain and key; throws a C2paCredentialsProblem with a
 * sentence when they cannot sign: not PEM, a key that is not the
 * certificate's, a certificate not valid at `now`, or a key of a type no C2PA
 * algorithm takes.
 */
export function readC2paCredentials(
  certPem: string,
  keyPem: string,
  now: Date = new Date(),
): C2paCredentials {
  const blocks = pemBlocks(normalizePem(certPem), "CERTIFICATE");
  if (blocks.length === 0)
    throw new C2paCredentialsProblem(
      "C2PA_CERT: is not a PEM certificate (a block from -----BEGIN CERTIFICATE----- to -----END CERTIFICATE-----, the signing certificate first, then its intermediates)",
    );
  let certificates: crypto.X509Certificate[];
  try {
    certificates = blocks.map((block) => new crypto.X509Certificate(block));
  } catch {
    throw new C2paCredentialsProblem(
      "C2PA_CERT: a certificate in it cannot be read; give the PEM file the certificate authority issued, unchanged",
    );
  }
  let key: crypto.KeyObject;
  try {
    key = crypto.createPrivateKey(normalizePem(keyPem));
  } catch {
    throw new C2paCredentialsProblem(
      "C2PA_KEY: is not a PEM private key (-----BEGIN PRIVATE KEY-----, EC PRIVATE KEY or RSA PRIVATE KEY), or it is encrypted; give the key unencrypted",
    );
  }
  const [signing] = certificates;
  if (!signing.checkPrivateKey(key))
    throw new C2paCredentialsProblem(
      "C2PA_CERT, C2PA_KEY: the key does not belong to the certificate (the certificate's public key is another key's); set the private key the signing certificate was issued for, or the certificate issued for this key",
    );
  const chosen = algorithmOf(key);
  if ("refused" in chosen)
    throw new C2paCredentialsProblem(
      `C2PA_KEY: ${chosen.refused} cannot sign Content Credentials; use an EC key on P-256, P-384 or P-521, an Ed25519 key, or an RSA key of at least 2048 bits`,
    );
  if (new Date(signing.validTo) <= now)
    throw new C2paCredentialsProblem(
      `C2PA_CERT: the certificate expired on ${new Date(signing.validTo).toISOString().slice(0, 10)}; set a current one (and its key)`,
    );
  if (new Date(signing.validFrom) > now)
    throw new C2paCredentialsProblem(
      `C2PA_CERT: the certificate is valid only from ${new Date(signing.validFrom).toISOString().slice(0, 10)}; set one valid now`,
    );
  return { certificates, key, algorithm: chosen.algorithm };
}

/** Signs `payload` as C2PA's COSE signature of `algorithm` wants it (ECDSA as r‖s, RSA with PSS). */
export function signWith(
  credentials: Pick<C2paCredentials, "key" | "algorithm">,
  payload: Uint8Array,
): Uint8Array {
  const { key, algorithm } = credentials;
  switch (algorithm) {
    case "ES256":
    case "ES384":
    case "ES512": {
      const hash = { ES256: "sha256", ES384: "sha384", ES512: "sha512" }[algorithm];
      return crypto.sign(hash, payload, { key, dsaEncoding: "ieee-p1363" });
    }
    case "Ed25519":
      return crypto.sign(null, payload, key);
    case "PS256":
      return crypto.sign("sha256", payload, {
        key,
        padding: crypto.constants.RSA_PKCS1_PSS_PADDING,
        saltLength: 32,
      });
  }
}
