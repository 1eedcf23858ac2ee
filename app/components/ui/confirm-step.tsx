import { Form, useNavigation } from '@remix-run/react';
import type { ReactNode } from 'react';
import { Button, buttonClass } from './button';
import { Dialog, DialogCancel } from './dialog';
import { HiddenFields } from './hidden-fields';
import './kit'; // one chunk with the other small controls (kit.ts)

export interface ConfirmStepProps {
  /** the control that asks for confirmation, e.g. 'Delete Pin' */
  trigger: ReactNode;
  triggerClassName?: string;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: ReactNode;
  pendingLabel?: ReactNode;
  /** the hidden fields of the POST form (at least `intent`); the one submission that matches them all is this one's */
  fields: Record<string, string>;
  /** where the form posts (default: this page's action) */
  action?: string;
  /** the page of the server-rendered confirm step, e.g. '?confirm=delete' (see Dialog) */
  href: string;
  closeHref: string;
  serverOpen?: boolean;
  danger?: boolean;
}

/**
 * Asks before an action is done: a dialog with JavaScript, a confirm step rendered by the server
 * without it, each with the action's POST form (Confirm) and Cancel.
 */
export function ConfirmStep({ trigger, triggerClassName, title, description, confirmLabel, pendingLabel = 'Working...', fields, action, href, closeHref, serverOpen, danger = false }: ConfirmStepProps) {
  const navigation = useNavigation();
  const matches = (formData: FormData) => Object.entries(fields).every(([name, value]) => formData.get(name) === value);
  const submitting = navigation.state !== 'idle' && !!navigation.formData && matches(navigation.formData);
  return (
    <Dialog
      title={title}
      description={description}
      trigger={trigger}
      triggerClassName={triggerClassName ?? buttonClass(danger ? 'danger' : 'secondary')}
      href={href}
      closeHref={closeHref}
      serverOpen={serverOpen}
      closesOn={matches}
      stepRole="alertdialog"
      tone={danger ? 'danger' : 'default'}
    >
      <Form method="post" action={action} className="flex flex-wrap justify-end gap-3" preventScrollReset>
        <HiddenFields fields={fields} />
        <DialogCancel />
        <Button variant={danger ? 'danger' : 'primary'} pending={submitting} pendingLabel={pendingLabel}>
          {confirmLabel}
        </Button>
      </Form>
    </Dialog>
  );
}
