import fsp from "node:fs/promises";
import path from "node:path";
import addressparser from "nodemailer/lib/addressparser";

/**
 * The outbox's files (outbox-transport.server.ts) by their recipients: a
 * person's erasure removes the messages written to them.
 */

/** How much of a file is read for its header section: ours is well under this. */
const HEADER_BYTES = 64 * 1024;

/**
 * Removes every `.eml` file of the outbox folder `dir` whose `To` header names
 * an address `isRecipient` accepts (given lower-cased); answers how many went.
 * A folder that does not exist holds nothing. A file being written is under a
 * hidden `.partial` name and is not looked at.
 */
export async function removeOutboxMailTo(
  dir: string,
  isRecipient: (address: string) => boolean,
): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return 0;
    throw error;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith(".eml") || name.startsWith(".")) continue;
    const file = path.join(dir, name);
    const recipients = await recipientsOf(file);
    if (recipients?.some(isRecipient)) {
      await fsp.rm(file, { force: true });
      removed += 1;
    }
  }
  return removed;
}

/** The lower-cased addresses of a message file's `To` header, or null when the file went meanwhile. */
async function recipientsOf(file: string): Promise<string[] | null> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
  try {
    const buffer = Buffer.alloc(HEADER_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEADER_BYTES, 0);
    const text = buffer.subarray(0, bytesRead).toString("latin1");
    const end = text.search(/\r?\n\r?\n/);
    // Folded header lines continue with a blank at the start of the next line.
    const headers = (end === -1 ? text : text.slice(0, end)).replace(/\r?\n[ \t]+/g, " ");
    const to = headers
      .split(/\r?\n/)
      .filter((line) => /^to:/i.test(line))
      .map((line) => line.slice(3));
    return to
      .flatMap((value) => flattenAddresses(addressparser(value)))
      .map((address) => address.trim().toLowerCase());
  } finally {
    await handle.close();
  }
}

type Parsed = ReturnType<typeof addressparser>;

function flattenAddresses(entries: Parsed): string[] {
  return entries.flatMap((entry) =>
    entry.group ? flattenAddresses(entry.group as Parsed) : entry.address ? [entry.address] : [],
  );
}
