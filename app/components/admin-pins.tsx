/**
 * The Pin Database Management pieces: its header and tabs (here), the pin form
 * (./admin-pin-form) and the organization form (./admin-organization-form). Each form has a module
 * of its own so that a page loads only the one it shows.
 */
import { formatCount } from '~/utils/format';
import { Tabs } from './ui/tabs';

export function PinDatabaseHeader({ current, totals }: { current: 'pins' | 'organizations'; totals: { pins: number; organizations: number } }) {
  return (
    <div className="space-y-3">
      <h1 className="text-2xl font-bold text-slate-900">Pin Database Management</h1>
      <Tabs
        label="Pin database sections"
        current={current}
        items={[
          { key: 'pins', label: 'Pins', count: totals.pins, href: '/admin/pins' },
          { key: 'organizations', label: 'Organizations', count: totals.organizations, href: '/admin/pins/organizations' },
        ]}
        formatCountLabel={(n) => `(${formatCount(n)})`}
      />
    </div>
  );
}
