import crypto from "node:crypto";
import os from "node:os";
import { BoundedGate, GateFullError } from "~/infra/bounded-gate.server";
import { serviceUnavailable } from "~/infra/errors.server";

// N=2^15, r=8, p=1: about 50 ms and 32 MB per hash on this machine's class of CPU.
const PARAMS = { N: 32768, r: 8, p: 1 };
const KEY_LENGTH = 64;
const MAX_MEMORY = 64 * 1024 * 1024;

/**
 * scrypt runs on libuv's thread pool, which sharp's image work shares. At most
 * half the cores hash at once (at least one); a bounded number of hashes wait,
 * and beyond that a sign-in, registration or password change answers 503 with
 * Retry-After instead of queueing without end. The gate is per process on
 * purpose: it protects this machine's cores, whatever the database
 * (docs/decisions/058). How many passwords are checked per email and address
 * is counted in the database (login-throttle.server.ts).
 */
export const HASH_CONCURRENCY = Math.max(1, Math.floor(os.availableParallelism() / 2));
export const HASH_QUEUE_LIMIT = 32 * HASH_CONCURRENCY;
/** A rough cost of one hash, for the Retry-After of a refused one. */
const HASH_ESTIMATE_MS = 100;

const gate = new BoundedGate(HASH_CONCURRENCY, HASH_QUEUE_LIMIT);

function scrypt(
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    crypto.scrypt(password, salt, keylen, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

async function gatedScrypt(
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) {
  try {
    return await gate.run(() => scrypt(password, salt, keylen, options));
  } catch (error) {
    if (!(error instanceof GateFullError)) throw error;
    const seconds = Math.max(
      1,
      Math.ceil(((error.queued + HASH_CONCURRENCY) * HASH_ESTIMATE_MS) / HASH_CONCURRENCY / 1000),
    );
    throw serviceUnavailable(seconds, "The server is busy. Please try again in a few seconds.");
  }
}

/** Hashes a password with scrypt; the result names its parameters so they can change later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await gatedScrypt(password, salt, KEY_LENGTH, { ...PARAMS, maxmem: MAX_MEMORY });
  return [
    "scrypt",
    PARAMS.N,
    PARAMS.r,
    PARAMS.p,
    salt.toString("base64"),
    key.toString("base64"),
  ].join("$");
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, keyText] = stored.split("$");
  if (scheme !== "scrypt" || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, "base64");
  const actual = await gatedScrypt(password, Buffer.from(saltText, "base64"), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: MAX_MEMORY,
  });
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

/**
 * A hash of a random password, used to spend the same time on an unknown email
 * as on a known one, so response times do not reveal which emails exist.
 * A refused first attempt (the gate was full) is not kept.
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(crypto.randomBytes(16).toString("hex")).catch((error: unknown) => {
    decoy = undefined;
    throw error;
  });
  return decoy;
}
