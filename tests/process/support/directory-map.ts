import fs from "node:fs";
import path from "node:path";

/**
 * A Map kept as one JSON file per entry in a directory, so two processes (a
 * test and the server it starts, killed and started again) share one state.
 * Writes go to a temporary name and are renamed into place.
 */
export class DirectoryMap<V> extends Map<string, V> {
  constructor(private readonly dir: string) {
    super();
    fs.mkdirSync(dir, { recursive: true });
  }

  private fileOf(key: string): string {
    return path.join(this.dir, `${Buffer.from(key).toString("base64url")}.json`);
  }

  override get(key: string): V | undefined {
    try {
      return JSON.parse(fs.readFileSync(this.fileOf(key), "utf8")) as V;
    } catch {
      return undefined;
    }
  }

  override has(key: string): boolean {
    return fs.existsSync(this.fileOf(key));
  }

  override set(key: string, value: V): this {
    const file = this.fileOf(key);
    const temporary = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(temporary, JSON.stringify(value));
    fs.renameSync(temporary, file);
    return this;
  }

  /** Every entry, read from the directory (the Stripe mock lists transfers and reversals with it). */
  override values(): MapIterator<V> {
    const values: V[] = [];
    for (const name of fs.readdirSync(this.dir)) {
      if (!name.endsWith(".json")) continue;
      try {
        values.push(JSON.parse(fs.readFileSync(path.join(this.dir, name), "utf8")) as V);
      } catch {
        // Renamed away between the listing and the read: skipped.
      }
    }
    return values[Symbol.iterator]() as MapIterator<V>;
  }

  override clear(): void {
    for (const name of fs.readdirSync(this.dir))
      fs.rmSync(path.join(this.dir, name), { force: true });
  }
}
