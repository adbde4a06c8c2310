import type { ReactNode } from "react";
import type { AdminStats } from "~/features/admin/types";
import { formatDollars } from "~/features/admin/types";

const ICONS: Record<string, ReactNode> = {
  users: (
    <path d="M7 9a3 3 0 100-6 3 3 0 000 6zm6 0a2.5 2.5 0 100-5M1.5 17c0-3 2.5-5 5.5-5s5.5 2 5.5 5M14 12c2.5.3 4.5 2.2 4.5 5" />
  ),
  active: (
    <path d="M7 9a3 3 0 100-6 3 3 0 000 6zM1.5 17c0-3 2.5-5 5.5-5 1.6 0 3 .6 4 1.5M12.5 15l2 2 4-4.5" />
  ),
  images: <path d="M3 4h14v12H3zM3 13l4-4 3 3 2-2 5 5M13 7.5a1 1 0 100 .01" />,
  revenue: (
    <path d="M10 2v16M14 5.5c-.8-1-2.2-1.5-4-1.5-2.2 0-3.8 1-3.8 2.8 0 4 8 2 8 6.2 0 1.9-1.7 3-4.2 3-2 0-3.5-.6-4.3-1.7" />
  ),
};

function StatCard({
  label,
  value,
  icon,
  testId,
}: {
  label: string;
  value: string;
  icon: string;
  testId: string;
}) {
  return (
    <div className="card flex items-center gap-4 p-5" data-testid={testId}>
      <span className="inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-xl bg-brand-50 text-brand-700">
        <svg
          viewBox="0 0 20 20"
          className="h-6 w-6"
          fill="none"
          stroke="currentColor"
          strokeWidth="1.6"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
        >
          {ICONS[icon]}
        </svg>
      </span>
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-600">{label}</p>
        <p
          className="text-2xl font-bold tracking-tight text-slate-900"
          data-testid={`${testId}-value`}
        >
          {value}
        </p>
      </div>
    </div>
  );
}

/** The Admin Portal's four stat cards. */
export function AdminStatCards({ stats }: { stats: AdminStats }) {
  const count = (n: number) => n.toLocaleString("en-US");
  return (
    <section
      aria-label="Platform statistics"
      className="grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-4"
    >
      {(
        [
          ["Total Users", count(stats.totalUsers), "users", "stat-total-users"],
          ["Active Users", count(stats.activeUsers), "active", "stat-active-users"],
          ["Total Images", count(stats.totalImages), "images", "stat-total-images"],
          [
            "Platform Revenue",
            formatDollars(stats.platformRevenue),
            "revenue",
            "stat-platform-revenue",
          ],
        ] as const
      ).map(([label, value, icon, testId]) => (
        <StatCard key={testId} label={label} value={value} icon={icon} testId={testId} />
      ))}
    </section>
  );
}
