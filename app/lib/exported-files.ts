/**
 * A stored file named for a creator's data export: its key in the file store
 * and the path it takes inside the zip. Each feature lists the files of its
 * own rows this way; the export writes them byte for byte.
 */
export interface ExportedFile {
  key: string;
  /** The path inside the zip, such as `images/originals/<id>.png`. */
  name: string;
  /** A file that may not exist (a mint kit's image is a PNG or a JPEG): skipped quietly when absent. */
  optional?: boolean;
}

/** The extension of a stored file's key (`png`, `jpg`, `webp`, `zip`, ...), for the name it takes inside the zip. */
export function keyExtension(key: string): string {
  return key.slice(key.lastIndexOf(".") + 1);
}
