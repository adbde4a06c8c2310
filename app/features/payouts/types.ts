/** The creator keeps 85% of each sale (the beta plan's promise); the platform keeps the rest. */
export const CREATOR_SHARE_PERCENT = 85;

/** A creator's numbers: the dashboard's stat cards and GET /api/token-stats. */
export interface CreatorStats {
  totalImages: number;
  totalStylized: number;
  totalListed: number;
  totalSales: number;
  /** Dollars: the creator's share of every sale. */
  totalEarnings: number;
  totalViews: number;
}
