import { useCurrency } from "~/ui/currency";
import { formatAmount } from "~/lib/money";

export interface StudioStats {
  totalImages: number;
  totalStylized: number;
  totalListed: number;
  totalEarnings: number;
}

/** The dashboard's four stat cards (backed by the same numbers as GET /api/token-stats). */
export function StatCards({ stats }: { stats: StudioStats }) {
  const currency = useCurrency();
  const cards = [
    { label: "Total Images", value: String(stats.totalImages), hint: "Selfies uploaded" },
    { label: "AI Styles", value: String(stats.totalStylized), hint: "Stylized images ready" },
    { label: "Listed", value: String(stats.totalListed), hint: "On the marketplace" },
    {
      label: "Earnings",
      value: formatAmount(stats.totalEarnings, currency),
      hint: "Your share of sales",
    },
  ];
  return (
    <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      {cards.map((card) => (
        <div key={card.label} className="card p-4">
          <dt className="text-sm font-medium text-slate-600">{card.label}</dt>
          <dd className="mt-1 text-2xl font-bold text-slate-900">{card.value}</dd>
          <dd className="text-xs text-slate-500">{card.hint}</dd>
        </div>
      ))}
    </dl>
  );
}
