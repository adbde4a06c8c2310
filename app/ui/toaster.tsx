import { createContext, useCallback, useContext, useEffect, useState } from "react";
import type { ReactNode } from "react";
import type { FlashMessage } from "~/lib/flash";

/**
 * One toast at a time. The server renders the flash message
 * of a redirect, so it shows without JavaScript; with JavaScript, screens add
 * their own through useToast() and the close button works.
 */
type ShowToast = (message: FlashMessage) => void;
const ToastContext = createContext<ShowToast>(() => {});
export const useToast = () => useContext(ToastContext);

export function ToastProvider({ flash, children }: { flash: FlashMessage | null; children: ReactNode }) {
  const [toast, setToast] = useState<FlashMessage | null>(flash);
  useEffect(() => {
    if (flash) setToast(flash);
  }, [flash]);
  const show = useCallback<ShowToast>((message) => setToast(message), []);
  return (
    <ToastContext.Provider value={show}>
      {children}
      <div
        aria-live="polite"
        role="status"
        className="pointer-events-none fixed inset-x-0 bottom-0 z-50 flex justify-end p-4 sm:bottom-4 sm:right-4 sm:left-auto"
      >
        {toast ? <Toast message={toast} onClose={() => setToast(null)} /> : null}
      </div>
    </ToastContext.Provider>
  );
}

const KIND_STYLES: Record<FlashMessage["kind"], string> = {
  success: "border-emerald-200 bg-white",
  info: "border-slate-200 bg-white",
  error: "border-red-300 bg-red-50",
};

function Toast({ message, onClose }: { message: FlashMessage; onClose: () => void }) {
  return (
    <div
      data-testid="toast"
      className={`pointer-events-auto w-full max-w-[420px] rounded-xl border p-4 shadow-lg ${KIND_STYLES[message.kind]}`}
    >
      <div className="flex items-start gap-3">
        <div className="flex-1">
          <p className={`text-sm font-semibold ${message.kind === "error" ? "text-red-800" : "text-slate-900"}`}>
            {message.title}
          </p>
          {message.description ? <p className="mt-1 text-sm text-slate-700">{message.description}</p> : null}
        </div>
        <button type="button" onClick={onClose} className="rounded p-1 text-slate-500 hover:bg-slate-100" aria-label="Dismiss">
          <svg viewBox="0 0 20 20" className="h-4 w-4" aria-hidden="true">
            <path d="M5 5l10 10M15 5L5 15" stroke="currentColor" strokeWidth="2" strokeLinecap="round" />
          </svg>
        </button>
      </div>
    </div>
  );
}
