/** Add New Pin / Edit Pin on the Pin Database Management page. */
import { Form, useNavigation } from '@remix-run/react';
import { useState } from 'react';
import type { AdminPin } from '~/types/admin';
import { PHOTO_LIMIT_MESSAGE, PHOTO_LIMIT_TITLE } from '~/utils/admin-constants';
import { MAX_PIN_PHOTOS, MIN_PIN_YEAR } from '~/utils/constants';
import { Button } from './ui/button';
import { DialogCancel } from './ui/dialog';
import { Field, FieldFrame, FormErrors } from './ui/field';
import { getFormProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from './ui/form-state';
import { HiddenFields } from './ui/hidden-fields';
import { useToast } from './toaster';

export interface PinFormProps {
  /** the pin to edit, or none for Add New Pin */
  pin?: AdminPin;
  organizations: { id: string; name: string }[];
  teams: { id: string; name: string }[];
  /** the action's reply to this form, when it refused it */
  lastResult?: SubmissionResult<string[]>;
  /** where the action sends the reader back to (the list they came from) */
  back: string;
  action: string;
}

/** Add New Pin / Edit Pin (spec §5): a multipart POST form, the same with and without JavaScript. */
export function PinForm({ pin, organizations, teams, lastResult, back, action }: PinFormProps) {
  const editing = !!pin;
  const intent = editing ? 'updatePin' : 'createPin';
  const navigation = useNavigation();
  const toast = useToast();
  const [tooMany, setTooMany] = useState(false);
  const [form, fields] = useForm({
    id: `pin-form-${pin?.id ?? 'new'}`,
    lastResult,
    defaultValue: pin
      ? {
          name: pin.name,
          organizationId: pin.organizationId,
          description: pin.description ?? '',
          teamId: pin.teamId ?? '',
          totalQuantity: String(pin.totalQuantity),
          year: pin.year != null ? String(pin.year) : '',
          event: pin.event ?? '',
          distributionDate: pin.distributionDate ?? '',
          estimatedValue: pin.estimatedValue != null ? pin.estimatedValue.toFixed(2) : '',
          isFeatured: pin.isFeatured ? 'on' : '',
        }
      : { totalQuantity: '100' },
  });
  const pending = navigation.state !== 'idle' && navigation.formData?.get('intent') === intent && navigation.formData?.get('id') === (pin?.id ?? '');
  const primaryIndex = pin ? pin.primaryPhotoIndex : 0;
  const orgProps = getSelectProps(fields.organizationId);
  const teamProps = getSelectProps(fields.teamId);

  return (
    <Form method="post" action={action} encType="multipart/form-data" {...getFormProps(form)} className="space-y-4" preventScrollReset>
      <HiddenFields fields={{ intent, id: pin?.id ?? '', back }} />
      <FormErrors errors={form.errors} title={editing ? 'Error updating pin' : 'Error creating pin'} />
      <Field label="Name" field={fields.name} autoComplete="off" />
      <FieldFrame label="Organization" field={fields.organizationId}>
        <select key={fields.organizationId.key} {...orgProps} className="input">
          <option value="">Select an organization</option>
          {organizations.map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      </FieldFrame>
      <FieldFrame label="Description" field={fields.description}>
        <textarea {...getTextareaProps(fields.description)} key={fields.description.key} rows={3} className="input" />
      </FieldFrame>
      <FieldFrame label="Team" field={fields.teamId}>
        <select key={fields.teamId.key} {...teamProps} className="input">
          <option value="">No Team</option>
          {teams.map((t) => (
            <option key={t.id} value={t.id}>
              {t.name}
            </option>
          ))}
        </select>
      </FieldFrame>
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <Field label="Total Quantity" field={fields.totalQuantity} type="number" min={1} step={1} />
        <Field label="Year" field={fields.year} type="number" min={MIN_PIN_YEAR} max={new Date().getFullYear()} step={1} />
        <Field label="Event" field={fields.event} />
        <Field label="Distribution Date" field={fields.distributionDate} type="date" />
        <Field label="Estimated Value ($)" field={fields.estimatedValue} type="number" min={0} step="0.01" />
      </div>
      <Field label="Featured Pin" field={fields.isFeatured} type="checkbox" description="Featured pins are highlighted on the home page" />

      <fieldset className="space-y-2">
        <legend className="label">Photos (max {MAX_PIN_PHOTOS})</legend>
        {pin && pin.images.length ? (
          <ul className="grid grid-cols-2 gap-2 sm:grid-cols-3">
            {pin.images.map((src, i) => (
              <li key={src} className="rounded-md border border-slate-200 p-2 text-xs">
                <img src={`${src}?s=thumb`} alt={`Photo ${i + 1} of ${pin.name}`} width={96} height={96} loading="lazy" className="mx-auto h-20 w-20 rounded object-cover" />
                <label className="mt-1 flex items-center gap-1">
                  <input type="checkbox" name="keep" value={src} defaultChecked />
                  Keep
                </label>
                <label className="flex items-center gap-1">
                  <input type="radio" name="primary" value={src} defaultChecked={i === primaryIndex} />
                  Primary
                </label>
              </li>
            ))}
          </ul>
        ) : null}
        <div>
          <label htmlFor={`photos-${pin?.id ?? 'new'}`} className="label">
            Add photos
          </label>
          <input
            id={`photos-${pin?.id ?? 'new'}`}
            type="file"
            name="photos"
            accept="image/*"
            multiple
            className="block w-full text-sm"
            aria-describedby={`photos-hint-${pin?.id ?? 'new'}`}
            onChange={(e) => {
              // the free slots: the photos kept (their boxes still checked) leave the rest of MAX_PIN_PHOTOS
              const kept = e.target.form?.querySelectorAll('input[name="keep"]:checked').length ?? 0;
              const over = (e.target.files?.length ?? 0) > MAX_PIN_PHOTOS - kept;
              setTooMany(over);
              if (over) toast({ title: PHOTO_LIMIT_TITLE, description: PHOTO_LIMIT_MESSAGE, variant: 'destructive' });
            }}
          />
          <p id={`photos-hint-${pin?.id ?? 'new'}`} className="mt-1 text-xs text-slate-500">
            Photos beyond {MAX_PIN_PHOTOS} in all (kept and new) are left out.
          </p>
          {tooMany ? (
            <p role="alert" className="field-error">
              {PHOTO_LIMIT_TITLE}: {PHOTO_LIMIT_MESSAGE}
            </p>
          ) : null}
          <label className="mt-1 flex items-center gap-1 text-xs text-slate-700">
            <input type="radio" name="primary" value="new-0" defaultChecked={!pin || pin.images.length === 0} />
            The first new photo is the primary photo
          </label>
        </div>
        {fields.keep.errors?.length ? <p className="field-error">{fields.keep.errors[0]}</p> : null}
      </fieldset>

      <div className="flex flex-wrap justify-end gap-3">
        <DialogCancel />
        <Button variant="primary" pending={pending} pendingLabel="Saving...">
          {editing ? 'Update Pin' : 'Create Pin'}
        </Button>
      </div>
    </Form>
  );
}
