import { readAtScrape, setReportFigures } from "~/infra/metrics.server";
import { reportCounts } from "~/features/reports/public.server";

/** /metrics reads the reports' open and overdue counts at each scrape (selfie_reports_open, selfie_reports_overdue). */
export function readReportFiguresAtScrape(): void {
  readAtScrape("reports", async (db, now) => setReportFigures(await reportCounts(db, now)));
}
