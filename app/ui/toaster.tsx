import { createContext, useCallback, useContext, useEffect, useRef, useState } from "react";
import type { ReactNode } from "react";
import type { FlashMessage } from "~/lib/flash";
import { useHydrated } from "~/ui/use-hydrated";

/**
 * One toast at a time: a new one replaces the one showing. The server renders
 * the flash message of a redirect, so it shows without JavaScript and closes
 * with a CSS-only control (a checkbox its label ticks); with JavaScript,
 * screens add their own through useToast(), the close button works and every
 * toast closes by itself after a few seconds (an error a little later).
 *
 * A toast belongs to the page it was shown on: when the page changes (`page`,
 * the path), the toast showing closes, so a cart or payment message does not
 * follow the buyer to another page or back to the checkout; a flash that
 * comes with the new page still shows. Sending a form (`submitting`) closes
 * it too: the answer to the new form is what the creator reads next, not the
 * earlier one's toast beside it (e.g. one platform's failure beside another
 * platform's field error).
 *
 * It sits at the top, under the header on phones and top-right on wider
 * screens, and only the toast itself takes pointer events, so it never covers
 * a page's buttons at the bottom of the screen.
 */
type ShowToast = (message: FlashMessage) => void;
const ToastContext = createContext<ShowToast>(() => {});
export const useToast = () => useContext(ToastContext);

/** How long a toast stays before closing by itself. */
export const TOAST_DURATION_MS = 5000;
export const ERROR_TOAST_DURATION_MS = 8000;

interface ShownToast {
  id: number;
  message: FlashMessage;
}

export function ToastProvider({
  flash,
  page,
  submitting = false,
  children,
}: {
  flash: FlashMessage | null;
  /** The page shown (its path): a change closes the toast of the page before. */
  page?: string;
  /** A form is being sent: the toast showing closes. */
  submitting?: boolean;
  children: ReactNode;
}) {
  const next = useRef(1);
  const [toast, setToast] = useState<ShownToast | null>(flash ? { id: 0, message: flash } : null);
  const show = useCallback<ShowToast>((message) => setToast({ id: next.current++, message }), []);
  const shownOn = useRef(page);
  // Before the flash effect below: a flash arriving with the new page is shown after this clears.
  useEffect(() => {
    if (shownOn.current === page) return;
    shownOn.current = page;
    setToast(null);
  }, [page]);
  useEffect(() => {
    if (submitting) setToast(null);
  }, [submitting]);
  const first = useRef(true);
  useEffect(() => {
    // The first flash is already in the initial state.
    if (first.current) {
      first.current = false;
      return;
    }
    if (flash) show(flash);
  }, [flash, show]);

  useEffect(() => {
    if (!toast) return;
    const duration = toast.message.kind === "error" ? ERROR_TOAST_DURATION_MS : TOAST_DURATION_MS;
    const timer = setTimeout(
      () => setToast((current) => (current?.id === toast.id ? null : current)),
      duration,
    );
    return () => clearTimeout(timer);
  }, [toast]);

  return (
    <ToastContext.Provider value={show}>
      {children}
      <div
        aria-live="polite"
        role="status"
        data-testid="toast-region"
        className="pointer-events-none fixed inset-x-0 top-16 z-50 flex justify-center px-4 sm:inset-x-auto sm:right-4 sm:top-20 sm:px-0"
      >
        {toast ? (
          <Toast key={toast.id} message={toast.message} onClose={() => setToast(null)} />
        ) : null}
      </div>
    </ToastContext.Provider>
  );
}

const KIND_STYLES: Record<FlashMessage["kind"], string> = {
  success: "border-emerald-200 bg-white",
  info: "border-slate-200 bg-white",
  error: "border-red-300 bg-red-50",
};

function CloseIcon() {
  return (
    <svg viewBox="0 0 20 20" className="h-4 w-4" aria-hidden="true">
      <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
    </svg>
  );
}

function Toast({ message, onClose }: { message: FlashMessage; onClose: () => void }) {
  const hydrated = useHydrated();
  const closeClass = "shrink-0 cursor-pointer rounded p-1 text-slate-500 hover:bg-slate-100";
  return (
    <>
      {/* Without JavaScript, the close label ticks this box and CSS hides the toast. */}
      {hydrated ? null : (
        <input type="checkbox" id="toast-dismiss" className="peer sr-only" aria-label="Dismiss" />
      )}
      <div
        data-testid="toast"
        className={`pointer-events-auto w-full max-w-[420px] rounded-xl border p-4 shadow-lg peer-checked:hidden sm:w-[420px] ${KIND_STYLES[message.kind]}`}
      >
        <div className="flex items-start gap-3">
          <div className="min-w-0 flex-1 wrap-anywhere">
            <p
              className={`text-sm font-semibold ${message.kind === "error" ? "text-red-800" : "text-slate-900"}`}
            >
              {message.title}
            </p>
            {message.description ? (
              <p className="mt-1 text-sm text-slate-700">{message.description}</p>
            ) : null}
          </div>
          {hydrated ? (
            <button type="button" onClick={onClose} className={closeClass} aria-label="Dismiss">
              <CloseIcon />
            </button>
          ) : (
            <label htmlFor="toast-dismiss" className={closeClass} title="Dismiss">
              <CloseIcon />
              <span className="sr-only">Dismiss</span>
            </label>
          )}
        </div>
      </div>
    </>
  );
}
