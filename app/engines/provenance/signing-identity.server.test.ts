import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import * as x509 from "@peculiar/x509";
import sharp from "sharp";
import { afterEach, describe, expect, it } from "vitest";
import {
  makeSelfMadePem,
  SELF_MADE_FILE,
  SELF_MADE_ORGANIZATION,
  selfMadeCredentials,
  signingIdentity,
} from "~/engines/provenance/signing-identity.server";
import { contentCredentialsFor } from "~/engines/provenance/content-credentials.server";
import { ConfigError, parseConfig } from "~/infra/config.server";
import { pemBlocks } from "~/infra/c2pa-credentials.server";
import { readWithC2paRs } from "#tests/setup/c2pa-reader";

/**
 * Who signs: the operator's C2PA_CERT and C2PA_KEY, checked at start, or a
 * certificate the server makes once and keeps in DATA_DIR.
 */

const dirs: string[] = [];
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "selfie-signer-"));
  dirs.push(dir);
  return dir;
}
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** A certificate and key of "the operator" (made the way the self-made ones are: a root and its signing certificate). */
async function operatorPem(now?: Date): Promise<{ cert: string; key: string }> {
  const pem = await makeSelfMadePem(now);
  return { cert: pemBlocks(pem, "CERTIFICATE").join("\n"), key: pemBlocks(pem, "PRIVATE KEY")[0] };
}

function refusal(env: Record<string, string>): string {
  try {
    parseConfig({ DATA_DIR: dataDir(), ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.join("\n");
    throw error;
  }
  throw new Error("the configuration was accepted");
}

describe("the self-made certificate", () => {
  it("is made on first use, kept owner-only in DATA_DIR, and the same one is used after", async () => {
    const dir = dataDir();
    const first = await selfMadeCredentials(dir);
    const file = path.join(dir, SELF_MADE_FILE);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const again = await selfMadeCredentials(dir);
    expect(again.certificates[0].fingerprint256).toBe(first.certificates[0].fingerprint256);
    // A root and the signing certificate it issued (C2PA readers refuse a self-signed signer), and its key.
    expect(first.certificates).toHaveLength(2);
    expect(first.certificates[0].checkIssued(first.certificates[1])).toBe(true);
    expect(first.certificates[0].subject).toContain(`O=${SELF_MADE_ORGANIZATION}`);
    expect(first.certificates[0].checkPrivateKey(first.key)).toBe(true);
  });

  it("two processes starting at once keep one certificate", async () => {
    const dir = dataDir();
    const made = await Promise.all([selfMadeCredentials(dir), selfMadeCredentials(dir)]);
    expect(made[0].certificates[0].fingerprint256).toBe(made[1].certificates[0].fingerprint256);
    expect(fs.readdirSync(dir)).toEqual([SELF_MADE_FILE]);
  });

  it("is replaced a month before it expires", async () => {
    const dir = dataDir();
    const first = await selfMadeCredentials(dir, new Date());
    const nearEnd = new Date(new Date(first.certificates[0].validTo).getTime() - 10 * 86_400_000);
    const renewed = await selfMadeCredentials(dir, nearEnd);
    expect(renewed.certificates[0].fingerprint256).not.toBe(first.certificates[0].fingerprint256);
    expect((await selfMadeCredentials(dir, nearEnd)).certificates[0].fingerprint256).toBe(
      renewed.certificates[0].fingerprint256,
    );
  });
});

describe("C2PA_CERT and C2PA_KEY", () => {
  it("sign the files instead of the self-made certificate when set", async () => {
    const operator = await operatorPem();
    const config = parseConfig({
      DATA_DIR: dataDir(),
      C2PA_CERT: operator.cert,
      C2PA_KEY: operator.key,
    });
    const identity = await signingIdentity(config);
    expect(identity.selfMade).toBe(false);
    const image = await sharp({
      create: { width: 32, height: 32, channels: 3, background: "#888" },
    })
      .png()
      .toBuffer();
    const signed = await contentCredentialsFor(config).sign(image, {
      digitalSourceType: "http://cv.iptc.org/newscodes/digitalsourcetype/composite",
      softwareAgent: "test",
      when: new Date(),
      original: null,
    });
    expect(fs.existsSync(path.join(config.dataDir, SELF_MADE_FILE))).toBe(false);
    const reading = await readWithC2paRs(signed, "image/png");
    expect(reading?.state).toBe("Valid");
    const certificate = new crypto.X509Certificate(pemBlocks(operator.cert, "CERTIFICATE")[0]);
    expect(reading?.manifest.signature_info?.cert_serial_number).toBe(
      BigInt(`0x${certificate.serialNumber}`).toString(),
    );
  });

  it("are taken with the line breaks written as \\n, as a one-line environment variable holds them", async () => {
    const operator = await operatorPem();
    const config = parseConfig({
      DATA_DIR: dataDir(),
      C2PA_CERT: operator.cert.replace(/\n/g, "\\n"),
      C2PA_KEY: operator.key.replace(/\n/g, "\\n"),
    });
    expect(config.C2PA_CERT).toBe(operator.cert.trim());
    expect(config.C2PA_KEY).toBe(operator.key.trim());
  });

  it("a key that is not the certificate's stops the start with a sentence", async () => {
    const one = await operatorPem();
    const other = await operatorPem();
    expect(refusal({ C2PA_CERT: one.cert, C2PA_KEY: other.key })).toMatch(
      /^C2PA_CERT, C2PA_KEY: the key does not belong to the certificate/,
    );
  });

  it("one without the other, text that is not PEM, an expired certificate and a weak key stop it too", async () => {
    const operator = await operatorPem();
    expect(refusal({ C2PA_CERT: operator.cert })).toMatch(/^C2PA_KEY: is required with C2PA_CERT/);
    expect(refusal({ C2PA_KEY: operator.key })).toMatch(/^C2PA_CERT: is required with C2PA_KEY/);
    expect(refusal({ C2PA_CERT: "hello", C2PA_KEY: operator.key })).toMatch(
      /^C2PA_CERT: is not a PEM certificate/,
    );
    expect(refusal({ C2PA_CERT: operator.cert, C2PA_KEY: "not a key" })).toMatch(
      /^C2PA_KEY: is not a PEM private key/,
    );

    const expired = await operatorPem(new Date("2015-01-01T00:00:00Z"));
    expect(refusal({ C2PA_CERT: expired.cert, C2PA_KEY: expired.key })).toMatch(
      /^C2PA_CERT: the certificate expired on 2020-01-01/,
    );

    // A 1024-bit RSA key signs nothing C2PA accepts.
    const algorithm = {
      name: "RSASSA-PKCS1-v1_5",
      hash: "SHA-256",
      publicExponent: new Uint8Array([1, 0, 1]),
      modulusLength: 1024,
    };
    const keys = (await crypto.webcrypto.subtle.generateKey(algorithm, true, [
      "sign",
      "verify",
    ])) as crypto.webcrypto.CryptoKeyPair;
    x509.cryptoProvider.set(crypto.webcrypto as unknown as Crypto);
    const weak = await x509.X509CertificateGenerator.createSelfSigned({
      name: "CN=weak",
      keys: keys as unknown as CryptoKeyPair,
      signingAlgorithm: algorithm,
      notAfter: new Date(Date.now() + 86_400_000),
    });
    const weakKey = crypto.KeyObject.from(keys.privateKey)
      .export({ type: "pkcs8", format: "pem" })
      .toString();
    expect(refusal({ C2PA_CERT: weak.toString("pem"), C2PA_KEY: weakKey })).toMatch(
      /^C2PA_KEY: an RSA key of 1024 bits cannot sign Content Credentials/,
    );
  });
});
