import { Link, useNavigation } from '@remix-run/react';
import { createContext, useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useHydrated } from '~/components/ui/use-hydrated';
import { buttonClass } from './button';
import './kit'; // one chunk with the other small controls (kit.ts)

export interface DialogProps {
  title: ReactNode;
  description?: ReactNode;
  /** what opens it: a button once JavaScript runs, a link to `href` before that or without it */
  trigger: ReactNode;
  triggerClassName?: string;
  /**
   * The page that shows this dialog as a server-rendered step, e.g. `?dialog=edit-org&id=…`. The
   * route's loader reads that URL and renders the page with `serverOpen`.
   */
  href: string;
  /** where the step's Cancel goes: the page without the dialog */
  closeHref: string;
  /** true when the server rendered this page for the step */
  serverOpen?: boolean;
  /**
   * Which submission closes the dialog (e.g. `(f) => f.get('intent') === 'edit'`): once it is on its
   * way back, the page it returns (a redirect, or the step with the action's errors) takes over.
   */
  closesOn?: (formData: FormData) => boolean;
  /**
   * How the server-rendered step is announced: a labelled region of the page, or an alertdialog
   * for a confirmation (with JavaScript it is always a modal dialog).
   */
  stepRole?: 'region' | 'alertdialog';
  tone?: 'default' | 'danger';
  size?: 'md' | 'lg';
  children: ReactNode;
}

interface DialogMode {
  mode: 'dialog' | 'step';
  closeHref: string;
  /** closes the modal dialog (mode 'dialog') */
  close?: () => void;
}
const DialogContext = createContext<DialogMode | null>(null);

/**
 * A dialog that works with and without JavaScript: once hydrated, the browser's own modal
 * `<dialog>` (`showModal()`: the rest of the page inert, focus moved inside and given back to the
 * trigger, Escape and a click on the backdrop close it; no library to load); before that, or without JavaScript, the trigger is a link to
 * a URL whose page the server renders with the same content in place, as a step of the page.
 * The content's Cancel is `<DialogCancel />`, which closes whichever of the two is showing.
 */
export function Dialog({
  title,
  description,
  trigger,
  triggerClassName = buttonClass('secondary'),
  href,
  closeHref,
  serverOpen = false,
  closesOn,
  stepRole = 'region',
  tone = 'default',
  size = 'md',
  children,
}: DialogProps) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const navigation = useNavigation();
  const submitted = navigation.state === 'loading' && !!navigation.formData && !!closesOn?.(navigation.formData);
  const titleId = useId();

  useEffect(() => {
    if (submitted) setOpen(false);
  }, [submitted]);

  // the step also stands in for a dialog closed by its own submission, when the page comes back
  // with the action's errors: they show in place, where the reader is
  if (serverOpen && !(hydrated && open)) {
    return (
      <DialogContext.Provider value={{ mode: 'step', closeHref }}>
        <section
          role={stepRole === 'alertdialog' ? 'alertdialog' : undefined}
          aria-labelledby={titleId}
          className={tone === 'danger' ? 'w-full rounded-lg border-2 border-red-200 bg-red-50 p-4' : 'card w-full p-4'}
        >
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          {description ? <div className="mt-1 text-sm text-slate-700">{description}</div> : null}
          <div className="mt-4">{children}</div>
        </section>
      </DialogContext.Provider>
    );
  }

  if (!hydrated) {
    return (
      <Link to={href} className={triggerClassName} preventScrollReset>
        {trigger}
      </Link>
    );
  }

  return (
    <>
      <button type="button" className={triggerClassName} aria-haspopup="dialog" onClick={() => setOpen(true)}>
        {trigger}
      </button>
      <ModalDialog open={open} onClose={() => setOpen(false)} title={title} description={description} size={size} closeHref={closeHref}>
        {children}
      </ModalDialog>
    </>
  );
}

function ModalDialog({
  open,
  onClose,
  title,
  description,
  size,
  closeHref,
  children,
}: {
  open: boolean;
  onClose: () => void;
  title: ReactNode;
  description?: ReactNode;
  size: 'md' | 'lg';
  closeHref: string;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const descriptionId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    else if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      // as Radix's dialog was marked: the same selectors find it (the element's role is implicit)
      role="dialog"
      aria-modal="true"
      aria-labelledby={titleId}
      aria-describedby={description ? descriptionId : undefined}
      // Escape (and any other way the browser closes it) ends here
      onClose={onClose}
      // a click on the backdrop reaches the <dialog> itself; the content fills it
      onClick={(event) => {
        if (event.target === event.currentTarget) onClose();
      }}
      className={`m-auto max-h-[90vh] w-[92vw] overflow-y-auto rounded-lg bg-white p-0 shadow-xl backdrop:bg-slate-900/50 ${size === 'lg' ? 'max-w-lg' : 'max-w-md'}`}
    >
      {open ? (
        <div className="p-6">
          <h2 id={titleId} className="text-lg font-semibold text-slate-900">
            {title}
          </h2>
          {description ? (
            <div id={descriptionId} className="mt-2 text-sm text-slate-600">
              {description}
            </div>
          ) : null}
          <DialogContext.Provider value={{ mode: 'dialog', closeHref, close: onClose }}>
            <div className="mt-4">{children}</div>
          </DialogContext.Provider>
        </div>
      ) : null}
    </dialog>
  );
}

/** Cancel inside a Dialog: closes the dialog, or leaves the server-rendered step for `closeHref`. */
export function DialogCancel({ children = 'Cancel', className = buttonClass('secondary') }: { children?: ReactNode; className?: string }) {
  const context = useContext(DialogContext);
  if (context?.mode === 'dialog') {
    return (
      <button type="button" className={className} onClick={context.close}>
        {children}
      </button>
    );
  }
  return (
    <Link to={context?.closeHref ?? '.'} className={className} preventScrollReset>
      {children}
    </Link>
  );
}
