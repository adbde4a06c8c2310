import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
} from "react";
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
 * It does not float over the page's controls: it takes room of its own.
 * ToastRegion is a row of the page's sticky top bar, under the navigation: at
 * the top of the page it pushes the page down; scrolled, it sits in the bar
 * as the navigation does (the page scrolls under the bar, not under a toast
 * laid over it). An open dialog (whose backdrop hides the page, and which
 * makes the rest of the page inert) has a DialogToastSlot under its title,
 * where the toast shows instead while the dialog is open. Only the toast
 * itself takes pointer events.
 */
type ShowToast = (message: FlashMessage) => void;
const ToastContext = createContext<ShowToast>(() => {});
export const useToast = () => useContext(ToastContext);

/** What the places a toast can show in need: the toast, its close, and which place shows it. */
interface ToastView {
  toast: ShownToast | null;
  close: () => void;
  /** The newest open dialog's slot (it shows the toast), or null: the page's region shows it. */
  topSlot: string | null;
  claim: (slot: string) => void;
  release: (slot: string) => void;
}
const ToastViewContext = createContext<ToastView | null>(null);

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
  region = "own",
  children,
}: {
  flash: FlashMessage | null;
  /** The page shown (its path): a change closes the toast of the page before. */
  page?: string;
  /** A form is being sent: the toast showing closes. */
  submitting?: boolean;
  /** "own": the region follows `children`; "placed": the layout puts a <ToastRegion /> where it belongs. */
  region?: "own" | "placed";
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

  const close = useCallback(() => setToast(null), []);
  const [slots, setSlots] = useState<string[]>([]);
  const claim = useCallback((slot: string) => setSlots((open) => [...open, slot]), []);
  const release = useCallback(
    (slot: string) => setSlots((open) => open.filter((one) => one !== slot)),
    [],
  );
  const view = useMemo<ToastView>(
    () => ({ toast, close, topSlot: slots.at(-1) ?? null, claim, release }),
    [toast, close, slots, claim, release],
  );

  return (
    <ToastContext.Provider value={show}>
      <ToastViewContext.Provider value={view}>
        {children}
        {region === "own" ? <ToastRegion /> : null}
      </ToastViewContext.Provider>
    </ToastContext.Provider>
  );
}

/**
 * The page's place for the toast: a row in the flow of the page (in the root
 * layout, of its sticky top bar, under the navigation), so it pushes the page
 * down rather than covering it. Empty, it takes no room; it stays in the page
 * so screen readers announce what appears in it. While a dialog with a
 * DialogToastSlot is open, the toast shows there instead.
 */
export function ToastRegion() {
  const view = useContext(ToastViewContext);
  const shown = view?.toast && view.topSlot === null ? view.toast : null;
  return (
    <div
      aria-live="polite"
      role="status"
      data-testid="toast-region"
      className="pointer-events-none mx-auto flex w-full max-w-7xl justify-center px-4 sm:justify-end"
    >
      {shown ? (
        <Toast
          key={shown.id}
          message={shown.message}
          onClose={view!.close}
          className="my-2 w-full max-w-[420px] sm:w-[420px]"
        />
      ) : null}
    </div>
  );
}

/**
 * An open dialog's place for the toast, under its title: while the dialog is
 * open the page's region is under its backdrop (and inert), so the toast shows
 * here, in the dialog's flow, covering none of its controls. The newest open
 * dialog's slot wins; when it closes, the toast goes back to the page.
 */
export function DialogToastSlot() {
  const slot = useId();
  const view = useContext(ToastViewContext);
  const claim = view?.claim;
  const release = view?.release;
  useEffect(() => {
    if (!claim || !release) return;
    claim(slot);
    return () => release(slot);
  }, [claim, release, slot]);
  const shown = view?.toast && view.topSlot === slot ? view.toast : null;
  return (
    <div aria-live="polite" role="status" data-testid="dialog-toast-slot">
      {shown ? (
        <Toast
          key={shown.id}
          message={shown.message}
          onClose={view!.close}
          className="mt-3 w-full"
        />
      ) : null}
    </div>
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

function Toast({
  message,
  onClose,
  className,
}: {
  message: FlashMessage;
  onClose: () => void;
  /** Its width and margins in the place it shows. */
  className: string;
}) {
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
        className={`pointer-events-auto rounded-xl border p-4 shadow-lg peer-checked:hidden ${className} ${KIND_STYLES[message.kind]}`}
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
