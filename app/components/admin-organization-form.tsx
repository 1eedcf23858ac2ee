/** Add Organization / Edit Organization on the Pin Database Management page. */
import { Form, useNavigation } from '@remix-run/react';
import type { AdminOrganization } from '~/types/admin';
import { Button } from './ui/button';
import { DialogCancel } from './ui/dialog';
import { Field, FieldFrame, FormErrors } from './ui/field';
import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from './ui/form-state';
import { HiddenFields } from './ui/hidden-fields';

export interface OrganizationFormProps {
  organization?: AdminOrganization;
  lastResult?: SubmissionResult<string[]>;
  back: string;
  action: string;
}

export function OrganizationForm({ organization, lastResult, back, action }: OrganizationFormProps) {
  const editing = !!organization;
  const intent = editing ? 'updateOrganization' : 'createOrganization';
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `org-form-${organization?.id ?? 'new'}`,
    lastResult,
    defaultValue: organization ? { name: organization.name, description: organization.description ?? '' } : undefined,
  });
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent && navigation.formData?.get('id') === (organization?.id ?? '');
  return (
    <Form method="post" action={action} {...getFormProps(form)} className="space-y-4" preventScrollReset>
      <HiddenFields fields={{ intent, id: organization?.id ?? '', back }} />
      <FormErrors errors={form.errors} title={editing ? 'Error updating organization' : 'Error creating organization'} />
      <Field label="Name" field={fields.name} autoComplete="off" />
      <FieldFrame label="Description" field={fields.description}>
        <textarea {...getTextareaProps(fields.description)} key={fields.description.key} rows={3} className="input" />
      </FieldFrame>
      <div className="flex flex-wrap justify-end gap-3">
        <DialogCancel />
        <Button variant="primary" pending={pending} pendingLabel="Saving...">
          {editing ? 'Update Organization' : 'Create Organization'}
        </Button>
      </div>
    </Form>
  );
}
