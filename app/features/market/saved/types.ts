/**
 * One saved listing as it is now: for sale (with its current price, read from
 * the database) or no longer available. A listing that left the marketplace
 * (withdrawn by its creator, removed after a report, hidden while a report is
 * decided, its creator banned or erased, or gone) shows nothing of itself any
 * more, as on every public page: only its id, so the buyer can remove it.
 */
export type SavedListing =
  | {
      id: string;
      available: true;
      title: string;
      style: string;
      priceCents: number;
      previewUrl: string;
      creatorFirstName: string;
      /** The pixel size of the file a buyer gets. */
      width: number;
      height: number;
    }
  | { id: string; available: false };
