import type { MetaFunction } from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { AdminHeader, DetailList, formatDateTime, LoadError } from '~/components/admin';
import { Button, buttonClass } from '~/components/ui/button';
import { DataTable, type DataTableColumn } from '~/components/ui/data-table';
import { Dialog, DialogCancel } from '~/components/ui/dialog';
import { EmptyState } from '~/components/ui/empty-state';
import { FieldFrame, FormErrors } from '~/components/ui/field';
import { getFormProps, getSelectProps, getTextareaProps, useForm, type SubmissionResult } from '~/components/ui/form-state';
import { HiddenFields } from '~/components/ui/hidden-fields';
import { ListSearch, Pagination } from '~/components/ui/list-controls';
import { Tabs } from '~/components/ui/tabs';
import { adminVendorsAction, adminVendorsLoader } from '~/http/admin-vendors-page.server';
import type { VendorApplicationRow } from '~/services/admin/vendors.server';
import { VENDOR_STATUS_NAMES as VENDOR_STATUS_LABELS } from '~/utils/admin-constants';
import { VENDOR_STATUSES, type VendorStatus } from '~/utils/constants';
import { formatCount, formatDate } from '~/utils/format';
import { isListFiltered, listQueryHref } from '~/utils/list-state';
import '~/root';

export const meta: MetaFunction = () => [{ title: 'Vendor Management | PinDex Admin' }];

const PATH = '/admin/vendors';

export const loader = adminVendorsLoader;
export const action = adminVendorsAction;

type Loaded = Extract<ReturnType<typeof useLoaderData<typeof loader>>, { state: 'ok' }>;

const TONE: Record<VendorStatus, string> = {
  pending: 'bg-amber-100 text-amber-800',
  under_review: 'bg-blue-100 text-blue-800',
  approved: 'bg-green-100 text-green-800',
  rejected: 'bg-red-100 text-red-800',
  needs_revision: 'bg-purple-100 text-purple-800',
};

function StatusBadge({ status }: { status: VendorStatus }) {
  return <span className={`badge ${TONE[status]}`}>{VENDOR_STATUS_LABELS[status]}</span>;
}

const age = (days: number) => (days === 0 ? 'today' : days === 1 ? '1 day' : `${formatCount(days)} days`);

export default function AdminVendors() {
  const data = useLoaderData<typeof loader>();
  if (data.state === 'error') {
    return (
      <div className="space-y-4">
        <AdminHeader title="Vendor Management" />
        <LoadError title="Failed to load vendor applications" message="Please try again." />
      </div>
    );
  }
  return <Vendors data={data} />;
}

function Vendors({ data }: { data: Loaded }) {
  const { query, applications, total, counts, paging, details } = data;
  const listHref = listQueryHref(PATH, query);
  const all = Object.values(counts).reduce((a, b) => a + b, 0);
  const columns: DataTableColumn<VendorApplicationRow>[] = [
    {
      key: 'business',
      header: 'Business',
      rowHeader: true,
      cell: (a) => (
        <div>
          <p className="font-medium text-slate-900">{a.businessName}</p>
          <p className="text-xs font-normal text-slate-500">{a.contactEmail}</p>
        </div>
      ),
    },
    { key: 'applicant', header: 'Applicant', cell: (a) => a.applicant, className: 'hidden md:table-cell' },
    { key: 'status', header: 'Status', cell: (a) => <StatusBadge status={a.status} /> },
    { key: 'age', header: 'Waiting', cell: (a) => (a.status === 'approved' || a.status === 'rejected' ? `decided ${formatDate(a.reviewedAt)}` : age(a.ageDays)), className: 'hidden sm:table-cell whitespace-nowrap' },
    { key: 'submitted', header: 'Submitted', cell: (a) => formatDate(a.createdAt), className: 'hidden md:table-cell whitespace-nowrap' },
    {
      key: 'actions',
      header: 'Actions',
      cell: (a) => (
        <Link to={`${listHref}${listHref.includes('?') ? '&' : '?'}id=${encodeURIComponent(a.id)}`} className={buttonClass('secondary', 'sm')} aria-label={`Review ${a.businessName}`}>
          Review
        </Link>
      ),
    },
  ];
  return (
    <div className="space-y-4">
      <AdminHeader title="Vendor Management" subtitle="Vendor applications, the oldest waiting first." />
      <Tabs
        label="Application status"
        current={query.filters.status ?? 'all'}
        items={[
          { key: 'all', label: 'All', count: all, href: listQueryHref(PATH, query, { filters: { status: undefined } }) },
          ...VENDOR_STATUSES.map((s) => ({ key: s, label: VENDOR_STATUS_LABELS[s], count: counts[s], href: listQueryHref(PATH, query, { filters: { status: s } }) })),
        ]}
      />
      <ListSearch query={query} label="Search applications" placeholder="Business name or applicant e-mail" pathname={PATH} />
      {details ? <ReviewStep details={details} back={listHref} /> : null}
      <DataTable
        caption="Vendor applications"
        columns={columns}
        rows={applications}
        rowKey={(a) => a.id}
        query={query}
        total={total}
        pathname={PATH}
        empty={<EmptyState title="No applications found" description={isListFiltered(query) ? 'No application matches this status or search.' : 'Nobody has applied to sell yet.'} />}
      />
      <Pagination paging={paging} query={query} pathname={PATH} label="Application pages" />
    </div>
  );
}

function ReviewStep({ details, back }: { details: NonNullable<Loaded['details']>; back: string }) {
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const [form, fields] = useForm({
    id: `review-${details.id}`,
    lastResult: actionData?.lastResult as SubmissionResult<string[]> | undefined,
  });
  const statusProps = getSelectProps(fields.status);
  return (
    <Dialog title={`Application: ${details.businessName}`} trigger="Review" href={`${back}`} closeHref={back} serverOpen size="lg">
      <div className="space-y-4">
        <DetailList
          items={[
            ['Status', <StatusBadge key="s" status={details.status} />],
            ['Submitted', `${formatDate(details.createdAt)} (${age(details.ageDays)} ago)`],
            ['Applicant', `${details.applicant} (${details.applicantEmail})`],
            ['Contact e-mail', details.contactEmail],
            ['Phone', details.contactPhone ?? '-'],
            ['Website', details.websiteUrl ?? '-'],
            ['Address', details.businessAddress ?? '-'],
            ['Years in business', details.yearsInBusiness != null ? String(details.yearsInBusiness) : '-'],
            ['Monthly volume', details.estimatedMonthlyVolume ?? '-'],
            ['Specializations', details.specializations.length ? details.specializations.join(', ') : '-'],
            ['Description', details.description ?? '-'],
            ['Admin notes', details.adminNotes ?? '-'],
            ...(details.rejectionReason ? ([['Rejection reason', details.rejectionReason]] as [string, string][]) : []),
          ]}
        />
        <section aria-label="Application history">
          <h3 className="text-sm font-semibold text-slate-900">History</h3>
          <ol className="mt-2 space-y-2 text-sm">
            {details.history.map((h) => (
              <li key={h.id} className="rounded-md bg-slate-50 p-2">
                <p className="font-medium text-slate-900">
                  {h.previousStatus ? `${VENDOR_STATUS_LABELS[h.previousStatus]} → ` : 'Applied: '}
                  {VENDOR_STATUS_LABELS[h.newStatus]}
                </p>
                <p className="text-xs text-slate-500">
                  {formatDateTime(h.createdAt)} · {h.changedBy ?? 'the applicant or the system'}
                </p>
                {h.notes ? <p className="mt-1 whitespace-pre-line text-slate-700">{h.notes}</p> : null}
              </li>
            ))}
            {details.history.length === 0 ? <li className="text-slate-600">No moves recorded yet.</li> : null}
          </ol>
        </section>
        {details.moves.length ? (
          <Form method="post" action={PATH} {...getFormProps(form)} className="space-y-3 border-t border-slate-200 pt-3" preventScrollReset>
            <h3 className="text-sm font-semibold text-slate-900">Move the application</h3>
            <HiddenFields fields={{ id: details.id, back }} />
            <FormErrors errors={form.errors} title="Error" />
            <FieldFrame label="New status" field={fields.status}>
              <select key={fields.status.key} {...statusProps} className="input">
                <option value="">Choose a status</option>
                {details.moves.map((s) => (
                  <option key={s} value={s}>
                    {VENDOR_STATUS_LABELS[s]}
                  </option>
                ))}
              </select>
            </FieldFrame>
            <FieldFrame label="Notes" field={fields.notes}>
              <textarea {...getTextareaProps(fields.notes)} key={fields.notes.key} rows={3} className="input" />
            </FieldFrame>
            <FieldFrame label="Rejection reason (needed to reject)" field={fields.rejectionReason}>
              <textarea {...getTextareaProps(fields.rejectionReason)} key={fields.rejectionReason.key} rows={2} className="input" />
            </FieldFrame>
            <div className="flex flex-wrap justify-end gap-3">
              <DialogCancel>Close</DialogCancel>
              <Button variant="primary" pending={navigation.state !== 'idle' && navigation.formData?.get('id') === details.id} pendingLabel="Saving...">
                Save
              </Button>
            </div>
          </Form>
        ) : null}
      </div>
    </Dialog>
  );
}
