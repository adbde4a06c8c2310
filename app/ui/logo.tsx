/** The product mark: a camera lens with a spark, drawn inline so it needs no request. */
export function LogoMark({ className = "h-8 w-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
      <defs>
        <linearGradient id="logo-gradient" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#7c3aed" />
          <stop offset="1" stopColor="#db2777" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="9" fill="url(#logo-gradient)" />
      <circle cx="16" cy="17" r="7" fill="none" stroke="white" strokeWidth="2.5" />
      <circle cx="16" cy="17" r="2.5" fill="white" />
      <path d="M24 5l1 2.5L27.5 8.5 25 9.5 24 12l-1-2.5L20.5 8.5 23 7.5z" fill="white" />
    </svg>
  );
}
