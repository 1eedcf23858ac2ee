/** Pieces shared by the team pages (/teams and /teams/{id}). */
import type { ReactNode } from 'react';
export { POSITIONS, PINS_PER_PLAYER } from '~/utils/teams';

/** The sections of /teams (?tab=...). */
export const TEAMS_TABS = [
  { key: 'teams', label: 'Teams' },
  { key: 'players', label: 'Players' },
  { key: 'coaches', label: 'Coaches' },
  { key: 'pins', label: 'Pin Inventory' },
] as const;
export type TeamsTab = (typeof TEAMS_TABS)[number]['key'];

/** A team's logo (its small variant), or its initials on a coloured tile. */
export function TeamLogo({ name, src, size = 56 }: { name: string; src: string | null; size?: number }) {
  if (src) {
    return <img src={src} alt={`${name} logo`} width={size} height={size} loading="lazy" className="shrink-0 rounded-md border border-slate-200 bg-white object-contain" style={{ width: size, height: size }} />;
  }
  const initials = name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((w) => w[0]?.toUpperCase() ?? '')
    .join('');
  return (
    <div
      aria-hidden="true"
      className="flex shrink-0 items-center justify-center rounded-md bg-brand-100 font-bold text-brand-700"
      style={{ width: size, height: size, fontSize: Math.round(size / 2.8) }}
    >
      {initials || '?'}
    </div>
  );
}


/** 'assistant_coach' -> 'assistant coach' (the specification shows roles with spaces). */
export const roleLabel = (role: string) => role.replace(/_/g, ' ');

export function StatusBadge({ active }: { active: boolean }) {
  return <span className={`badge ${active ? 'bg-green-100 text-green-800' : 'bg-slate-100 text-slate-600'}`}>{active ? 'Active' : 'Inactive'}</span>;
}

export function EmptyNote({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="rounded-lg border border-dashed border-slate-300 bg-white p-6 text-center">
      <p className="font-semibold text-slate-900">{title}</p>
      {children ? <div className="mt-1 text-sm text-slate-600">{children}</div> : null}
    </div>
  );
}
