import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';

export interface ToastMessage {
  id: string;
  title: string;
  description?: string;
  variant?: 'default' | 'success' | 'destructive';
}

const variantClass: Record<NonNullable<ToastMessage['variant']>, string> = {
  default: 'border-slate-200 bg-white text-slate-900',
  success: 'border-green-200 bg-green-50 text-green-900',
  destructive: 'border-red-200 bg-red-50 text-red-900',
};

/** True once React runs in the browser (false in the server's HTML and without JavaScript). */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * Without JavaScript, the flash messages as an inline status at the top of the main content, where
 * the eye is after the page loads (the layout renders it first in `<main>`). Once hydrated they are
 * toasts instead (Toaster).
 */
export function FlashMessages() {
  const toasts = useContext(ToastListContext);
  const hydrated = useHydrated();
  if (hydrated || toasts.length === 0) return null;
  return (
    <div className="mb-4 space-y-2" role="status" data-testid="flash">
      {toasts.map((t) => (
        <div key={t.id} className={`rounded-md border p-3 text-sm ${variantClass[t.variant ?? 'default']}`}>
          <p className="font-semibold">{t.title}</p>
          {t.description ? <p>{t.description}</p> : null}
        </div>
      ))}
    </div>
  );
}

/** Shows toasts one at a time, 5 s each, the next 500 ms after the previous one (JavaScript only). */
export function Toaster({ toasts }: { toasts: ToastMessage[] }) {
  const hydrated = useHydrated();
  const [index, setIndex] = useState(0);
  const [visible, setVisible] = useState(true);
  const key = toasts.map((t) => t.id).join(',');

  useEffect(() => {
    setIndex(0);
    setVisible(true);
  }, [key]);
  useEffect(() => {
    if (!hydrated || index >= toasts.length) return;
    setVisible(true);
    const hide = setTimeout(() => setVisible(false), 5000);
    const next = setTimeout(() => setIndex((i) => i + 1), 5500);
    return () => {
      clearTimeout(hide);
      clearTimeout(next);
    };
  }, [hydrated, index, toasts.length]);

  if (toasts.length === 0 || !hydrated) return null;
  const toast = toasts[index];
  return (
    <div className="pointer-events-none fixed bottom-20 right-0 z-50 flex w-full flex-col p-4 sm:bottom-4 sm:max-w-[420px]" aria-live="polite">
      {toast && visible ? (
        <div role="status" data-testid="toast" className={`pointer-events-auto rounded-md border p-4 shadow-lg ${variantClass[toast.variant ?? 'default']}`}>
          <div className="flex items-start gap-3">
            <div className="flex-1">
              <p className="text-sm font-semibold">{toast.title}</p>
              {toast.description ? <p className="mt-1 text-sm">{toast.description}</p> : null}
            </div>
            <button type="button" className="text-sm opacity-70 hover:opacity-100" onClick={() => setVisible(false)} aria-label="Dismiss">
              ×
            </button>
          </div>
        </div>
      ) : null}
    </div>
  );
}

type ShowToasts = (toasts: Omit<ToastMessage, 'id'>[] | Omit<ToastMessage, 'id'>) => void;
const ToastContext = createContext<ShowToasts>(() => undefined);
const ToastListContext = createContext<ToastMessage[]>([]);

/** Client-side toasts (results of fetcher calls); server toasts come from the root loader. */
export function useToast(): ShowToasts {
  return useContext(ToastContext);
}

export function ToastProvider({ serverToasts, children }: { serverToasts: ToastMessage[]; children: ReactNode }) {
  const [clientToasts, setClientToasts] = useState<ToastMessage[]>([]);
  const show = useCallback<ShowToasts>((input) => {
    const list = Array.isArray(input) ? input : [input];
    setClientToasts(list.map((t) => ({ ...t, id: Math.random().toString(36).slice(2) })));
  }, []);
  // A new toast from the server (after a redirect) replaces an older client toast.
  const serverKey = serverToasts.map((t) => t.id).join(',');
  useEffect(() => {
    if (serverKey) setClientToasts([]);
  }, [serverKey]);
  const toasts = clientToasts.length ? clientToasts : serverToasts;
  return (
    <ToastContext.Provider value={show}>
      <ToastListContext.Provider value={toasts}>
        {children}
        <Toaster toasts={toasts} />
      </ToastListContext.Provider>
    </ToastContext.Provider>
  );
}
