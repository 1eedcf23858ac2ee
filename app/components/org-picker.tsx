import { useId, useMemo, useRef, useState } from 'react';
import { useHydrated } from '~/components/ui/use-hydrated';

export interface OrgOption {
  id: string;
  name: string;
  description: string | null;
}

interface OrgPickerProps {
  /** undefined while the organizations are still loading */
  organizations: OrgOption[] | undefined;
  value: string;
  onChange?: (id: string) => void;
  name?: string;
  label?: string;
}

/**
 * The organization filter. Without JavaScript a plain <select> (first option All Organizations).
 * Once hydrated, a searchable, clearable combobox: typing filters by name or description (case
 * insensitive), each option shows its description as a subtitle; the value travels in a hidden input.
 */
export function OrgPicker({ organizations, value, onChange, name = 'organizationId', label = 'Organization' }: OrgPickerProps) {
  const hydrated = useHydrated();
  const id = useId();
  if (!hydrated) {
    return (
      <div>
        <label htmlFor={id} className="label">
          {label}
        </label>
        <select id={id} name={name} defaultValue={value} className="input">
          <option value="">All Organizations</option>
          {(organizations ?? []).map((o) => (
            <option key={o.id} value={o.id}>
              {o.name}
            </option>
          ))}
        </select>
      </div>
    );
  }
  return <OrgCombobox organizations={organizations} value={value} onChange={onChange} name={name} label={label} id={id} />;
}

function OrgCombobox({ organizations, value, onChange, name, label, id }: Required<Omit<OrgPickerProps, 'organizations' | 'onChange'>> & Pick<OrgPickerProps, 'organizations' | 'onChange'> & { id: string }) {
  const [selected, setSelected] = useState(value);
  const [query, setQuery] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const inputRef = useRef<HTMLInputElement>(null);
  const listId = `${id}-list`;

  const current = organizations?.find((o) => o.id === selected) ?? null;
  const options = useMemo(() => {
    const q = query.trim().toLowerCase();
    const all: OrgOption[] = [{ id: '', name: 'All Organizations', description: null }, ...(organizations ?? [])];
    if (!q) return all;
    return all.filter((o) => o.id !== '' && (o.name.toLowerCase().includes(q) || (o.description ?? '').toLowerCase().includes(q)));
  }, [organizations, query]);

  function choose(next: string) {
    setSelected(next);
    setQuery('');
    setOpen(false);
    onChange?.(next);
  }

  function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setOpen(true);
      setActive((a) => Math.min(options.length - 1, a + 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((a) => Math.max(0, a - 1));
    } else if (e.key === 'Enter') {
      if (open && options[active]) {
        e.preventDefault();
        choose(options[active].id);
      }
    } else if (e.key === 'Escape') {
      setOpen(false);
      setQuery('');
    }
  }

  return (
    <div className="relative">
      <label htmlFor={id} className="label">
        {label}
      </label>
      <input type="hidden" name={name} value={selected} />
      <div className="relative">
        <input
          ref={inputRef}
          id={id}
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && options[active] ? `${listId}-${active}` : undefined}
          autoComplete="off"
          className="input pr-16"
          placeholder={current ? current.name : 'All Organizations'}
          value={open ? query : (current?.name ?? '')}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
            setOpen(true);
          }}
          onFocus={() => setOpen(true)}
          onClick={() => setOpen(true)}
          onBlur={() => {
            setOpen(false);
            setQuery('');
          }}
          onKeyDown={onKeyDown}
        />
        {selected ? (
          <button
            type="button"
            aria-label="Clear organization"
            className="absolute right-8 top-1/2 -translate-y-1/2 rounded px-1 text-slate-500 hover:text-slate-900"
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose('')}
          >
            ×
          </button>
        ) : null}
        <span className="pointer-events-none absolute right-3 top-1/2 -translate-y-1/2 text-slate-400" aria-hidden="true">
          ▾
        </span>
      </div>
      {open ? (
        <ul id={listId} role="listbox" aria-label={label} className="absolute z-30 mt-1 max-h-[300px] w-full overflow-auto rounded-md border border-slate-200 bg-white py-1 shadow-lg">
          {organizations === undefined ? (
            <li className="px-3 py-2 text-sm text-slate-500">Loading...</li>
          ) : options.length === 0 ? (
            <li className="px-3 py-2 text-sm text-slate-500">No organizations found</li>
          ) : (
            options.map((o, i) => (
              <li
                key={o.id || 'all'}
                id={`${listId}-${i}`}
                role="option"
                aria-selected={o.id === selected}
                className={`cursor-pointer px-3 py-2 text-sm ${i === active ? 'bg-brand-50' : ''} ${o.id === selected ? 'font-semibold' : ''}`}
                onMouseDown={(e) => e.preventDefault()}
                onMouseEnter={() => setActive(i)}
                onClick={() => choose(o.id)}
              >
                <div className="text-slate-900">{o.name}</div>
                {o.description ? <div className="truncate text-xs text-slate-500">{o.description}</div> : null}
              </li>
            ))
          )}
        </ul>
      ) : null}
    </div>
  );
}
