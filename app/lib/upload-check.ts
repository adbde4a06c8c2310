import { FILE_TOO_LARGE, INVALID_FILE_TYPE, MAX_UPLOAD_BYTES } from "~/lib/limits";

/**
 * The upload widget's checks before sending: the size first,
 * then the declared type. The server decides again on the bytes themselves.
 */
export function checkUploadFile(file: {
  size: number;
  type: string;
}): { title: string; description: string } | null {
  if (file.size > MAX_UPLOAD_BYTES) return FILE_TOO_LARGE;
  if (!file.type.startsWith("image/")) return INVALID_FILE_TYPE;
  return null;
}
