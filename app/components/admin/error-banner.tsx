/**
 * The back office's message banners. Errors (spec §8) are red and announced at once (role="alert");
 * notices after a successful write are green and polite.
 */
export function ErrorBanner({ message, className = "" }: { message?: string | null; className?: string }) {
  if (!message) return null;
  return (
    <div role="alert" className={`flex items-start gap-2 rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm font-medium text-red-800 ${className}`}>
      <svg aria-hidden="true" viewBox="0 0 20 20" className="mt-0.5 size-4 shrink-0 fill-current">
        <path d="M10 1.5a8.5 8.5 0 1 0 0 17 8.5 8.5 0 0 0 0-17Zm-.9 4.5h1.8v5.5H9.1V6Zm0 7h1.8v1.8H9.1V13Z" />
      </svg>
      <p>{message}</p>
    </div>
  );
}

export function NoticeBanner({ message, className = "" }: { message?: string | null; className?: string }) {
  if (!message) return null;
  return (
    <div role="status" className={`rounded-md border border-green-300 bg-green-50 px-4 py-3 text-sm font-medium text-green-800 ${className}`}>
      <p>{message}</p>
    </div>
  );
}

/** Something staff should fix in the set-up (amber): not an error of the current screen. */
export function WarningBanner({ children, className = "" }: { children: React.ReactNode; className?: string }) {
  return <div className={`rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900 ${className}`}>{children}</div>;
}
