import { useNavigation } from "@remix-run/react";

/** A thin bar and spinner while the next page (and its session) loads. */
export function NavigationProgress() {
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  return (
    <div
      aria-hidden={!busy}
      className={`pointer-events-none fixed inset-x-0 top-0 z-50 ${busy ? "" : "hidden"}`}
    >
      <div className="h-1 w-full overflow-hidden bg-brand-100">
        <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-brand-600" />
      </div>
      {busy ? (
        <div className="absolute top-3 right-3" role="status">
          <Spinner label="Loading" />
        </div>
      ) : null}
    </div>
  );
}

export function Spinner({ label, className = "h-5 w-5" }: { label?: string; className?: string }) {
  return (
    <span className="inline-flex items-center gap-2">
      <svg
        className={`${className} animate-spin text-brand-600`}
        viewBox="0 0 24 24"
        aria-hidden="true"
      >
        <circle
          cx="12"
          cy="12"
          r="10"
          stroke="currentColor"
          strokeWidth="3"
          fill="none"
          opacity="0.25"
        />
        <path d="M22 12a10 10 0 0 0-10-10" stroke="currentColor" strokeWidth="3" fill="none" />
      </svg>
      {label ? <span className="sr-only">{label}</span> : null}
    </span>
  );
}
