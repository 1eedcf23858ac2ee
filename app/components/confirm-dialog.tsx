import * as Dialog from '@radix-ui/react-dialog';
import { Form, Link, useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { useHydrated } from 'remix-utils/use-hydrated';

export interface ConfirmDialogProps {
  /** the button that asks for confirmation, e.g. 'Delete Pin' */
  triggerLabel: string;
  triggerClassName?: string;
  title: string;
  description: React.ReactNode;
  confirmLabel: string;
  pendingLabel?: string;
  /** hidden fields of the POST form (at least `intent`) */
  fields: Record<string, string>;
  /** where the form posts (defaults to the current page's action) */
  action?: string;
  /**
   * Without JavaScript the trigger is a link to this URL (e.g. '?confirm=delete'), whose page the
   * server renders with `serverOpen` so the confirm step shows as an inline panel.
   */
  confirmHref: string;
  /** the URL the inline panel's Cancel goes back to */
  cancelHref: string;
  /** true when the server rendered the page for the confirm step */
  serverOpen?: boolean;
  danger?: boolean;
}

/**
 * A confirmation step that works with and without JavaScript: a Radix dialog once hydrated,
 * and a server-rendered confirm panel (reached through a plain link) before that or without JS.
 */
export function ConfirmDialog(props: ConfirmDialogProps) {
  const hydrated = useHydrated();
  const [open, setOpen] = useState(false);
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formData?.get('intent') === props.fields.intent;

  // close once the submission moved on (a redirect or an error page replaces this one)
  useEffect(() => {
    if (navigation.state === 'loading' && navigation.formData?.get('intent') === props.fields.intent) setOpen(false);
  }, [navigation.state, navigation.formData, props.fields.intent]);

  const triggerClass = props.triggerClassName ?? (props.danger ? 'btn-danger' : 'btn-secondary');

  if (props.serverOpen) return <ConfirmPanel {...props} submitting={submitting} />;

  if (!hydrated) {
    return (
      <Link to={props.confirmHref} className={triggerClass} preventScrollReset>
        {props.triggerLabel}
      </Link>
    );
  }

  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className={triggerClass}>
          {props.triggerLabel}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content className="fixed left-1/2 top-1/2 z-50 w-[92vw] max-w-md -translate-x-1/2 -translate-y-1/2 rounded-lg bg-white p-6 shadow-xl focus:outline-none">
          <Dialog.Title className="text-lg font-semibold text-slate-900">{props.title}</Dialog.Title>
          <Dialog.Description asChild>
            <div className="mt-2 text-sm text-slate-600">{props.description}</div>
          </Dialog.Description>
          <Form method="post" action={props.action} className="mt-6 flex justify-end gap-3" preventScrollReset>
            {Object.entries(props.fields).map(([name, value]) => (
              <input key={name} type="hidden" name={name} value={value} />
            ))}
            <Dialog.Close asChild>
              <button type="button" className="btn-secondary">
                Cancel
              </button>
            </Dialog.Close>
            <button type="submit" className={props.danger ? 'btn-danger' : 'btn-primary'} disabled={submitting}>
              {submitting ? (props.pendingLabel ?? 'Working...') : props.confirmLabel}
            </button>
          </Form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

function ConfirmPanel(props: ConfirmDialogProps & { submitting: boolean }) {
  return (
    <section role="alertdialog" aria-labelledby="confirm-title" className="w-full rounded-lg border-2 border-red-200 bg-red-50 p-4">
      <h2 id="confirm-title" className="text-base font-semibold text-slate-900">
        {props.title}
      </h2>
      <div className="mt-1 text-sm text-slate-700">{props.description}</div>
      <Form method="post" action={props.action} className="mt-4 flex flex-wrap gap-3">
        {Object.entries(props.fields).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        <button type="submit" className={props.danger ? 'btn-danger' : 'btn-primary'} disabled={props.submitting}>
          {props.submitting ? (props.pendingLabel ?? 'Working...') : props.confirmLabel}
        </button>
        <Link to={props.cancelHref} className="btn-secondary" preventScrollReset>
          Cancel
        </Link>
      </Form>
    </section>
  );
}
