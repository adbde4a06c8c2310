/** The crown beside the super admin's name. */
export function CrownIcon({ className = "h-4 w-4" }: { className?: string }) {
  return (
    <svg
      viewBox="0 0 20 20"
      className={`${className} shrink-0 text-amber-500`}
      role="img"
      aria-label="Super admin"
      data-testid="super-admin-crown"
    >
      <title>Super admin</title>
      <path
        fill="currentColor"
        d="M2.5 6.2l4.1 3.1L9.3 3.6a.8.8 0 011.4 0l2.7 5.7 4.1-3.1a.6.6 0 01.95.6l-1.6 7.7a.8.8 0 01-.8.6H4a.8.8 0 01-.8-.6L1.6 6.8a.6.6 0 01.9-.6zM4.2 15.6h11.6v1.2a.7.7 0 01-.7.7H4.9a.7.7 0 01-.7-.7z"
      />
    </svg>
  );
}
