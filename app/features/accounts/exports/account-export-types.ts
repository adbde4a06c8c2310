/** A creator's export of their own data, as the API and the Your data tab show it. */
export interface AccountExportView {
  id: string;
  status: "pending" | "ready" | "failed";
  /** The zip's download link while it may be downloaded (ready, within its 24 hours); null otherwise. */
  url: string | null;
  /** When the download link stops working (null until the zip is ready). */
  expiresAt: string | null;
  createdAt: string;
  /** The zip's size in bytes once ready. */
  bytes: number | null;
  /** Why it failed, in words a person can read. */
  error: string | null;
}

/** How long an export's download link works, and the zip is kept. */
export const EXPORT_LINK_HOURS = 24;
/** A new export may be asked for once per this many minutes (a pending one is answered again meanwhile). */
export const EXPORT_INTERVAL_MINUTES = 60;
