import fs from "node:fs";
import { createRequire } from "node:module";
import { initSync, WasmReader } from "@contentauth/c2pa-wasm";

/**
 * An independent reader of Content Credentials for the tests: c2pa-rs (the
 * C2PA's reference implementation, compiled to WebAssembly) through
 * @contentauth/c2pa-wasm, loaded from its .wasm file on disk (no network).
 * The server signs with another implementation (@trustnxt/c2pa-ts); this says
 * whether what it wrote is what the standard's own reader accepts.
 */

let loaded = false;

function load() {
  if (loaded) return;
  const require = createRequire(import.meta.url);
  initSync({ module: fs.readFileSync(require.resolve("@contentauth/c2pa-wasm/c2pa.wasm")) });
  loaded = true;
}

export interface C2paRsStatus {
  code: string;
  url?: string;
  explanation?: string;
}

export interface C2paRsReading {
  /** c2pa-rs's verdict: "Invalid", "Valid" (well-formed and unchanged, signer not on a trust list) or "Trusted". */
  state: "Invalid" | "Valid" | "Trusted";
  /** The failure codes of the active manifest (an untrusted signer's `signingCredential.untrusted` among them). */
  failures: string[];
  /** The active manifest as c2pa-rs reports it (claim_generator_info, ingredients, assertions, signature_info, ...). */
  manifest: Record<string, unknown> & {
    claim_generator_info?: { name: string; version?: string }[];
    ingredients?: Record<string, unknown>[];
    assertions?: { label: string; data: Record<string, unknown> }[];
    signature_info?: Record<string, unknown>;
  };
}

/** What c2pa-rs reads of the file: null when it finds no manifest at all. */
export async function readWithC2paRs(
  bytes: Uint8Array,
  mimeType: string,
): Promise<C2paRsReading | null> {
  load();
  let reader: WasmReader;
  try {
    reader = await WasmReader.fromBytes(mimeType, new Uint8Array(bytes));
  } catch (error) {
    if (String(error).includes("JumbfNotFound")) return null;
    throw error;
  }
  try {
    const store = reader.manifestStore() as {
      validation_state: C2paRsReading["state"];
      validation_results?: { activeManifest?: { failure?: C2paRsStatus[] } };
    };
    return {
      state: store.validation_state,
      failures: (store.validation_results?.activeManifest?.failure ?? []).map((s) => s.code),
      manifest: reader.activeManifest() as C2paRsReading["manifest"],
    };
  } finally {
    reader.free();
  }
}

/** The actions of the manifest's actions assertion, as c2pa-rs reports them. */
export function actionsOf(reading: C2paRsReading): Record<string, unknown>[] {
  const assertion = reading.manifest.assertions?.find((a) => a.label.startsWith("c2pa.actions"));
  return (assertion?.data.actions as Record<string, unknown>[] | undefined) ?? [];
}
