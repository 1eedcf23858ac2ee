/**
 * The UI primitives as the server renders them (react-dom/server inside a React Router data router,
 * which Remix's Link, Form and useNavigation need): what a reader would find in the HTML.
 */
import { useForm, type SubmissionResult } from '@conform-to/react';
import { parseWithZod } from '@conform-to/zod';
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Field } from '~/components/ui/field';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { DataTable, type DataTableColumn } from '~/components/ui/data-table';
import { BulkDataTable } from '~/components/ui/data-table-bulk';
import { Dialog, DialogCancel } from '~/components/ui/dialog';
import { EmptyState } from '~/components/ui/empty-state';
import { ListSearch, Pagination } from '~/components/ui/list-controls';
import { StatCard } from '~/components/ui/stat-card';
import { Tabs } from '~/components/ui/tabs';
import { listQuerySchema, readListQuery } from '~/utils/list-query';
import { paginate } from '~/utils/paging';

/** Server render of `element` at `url`, as a Remix page is rendered. */
async function render(element: ReactElement, url: string) {
  const handler = createStaticHandler([{ path: '*', element }]);
  const context = await handler.query(new Request(`http://localhost${url}`));
  if (context instanceof Response) throw new Error('unexpected redirect');
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
}

/** The opening tags named `name` in `html`. */
const tags = (html: string, name: string) => html.match(new RegExp(`<${name}\\b[^>]*>`, 'g')) ?? [];
const attr = (tag: string | undefined, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag ?? '');
  return m ? m[1].replace(/&amp;/g, '&') : null;
};
/** Visible text, roughly: tags dropped, entities a reader sees decoded. */
const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#x27;/g, "'")
    .replace(/\s+/g, ' ');

const RARITIES = ['common', 'rare'] as const;
const pinsQuery = listQuerySchema({
  filters: { rarity: RARITIES, organizationId: 'id' },
  sorts: ['name', 'createdAt'],
  defaultSort: 'createdAt',
  defaultDir: 'desc',
  sizes: [20, 50],
});

interface PinRow {
  id: string;
  name: string;
  createdAt: string;
}
const rows: PinRow[] = [
  { id: 'p1', name: 'Cap Pin', createdAt: 'Mar 5, 2025' },
  { id: 'p2', name: 'Bat & Ball', createdAt: 'Mar 6, 2025' },
];
const columns: DataTableColumn<PinRow>[] = [
  { key: 'name', header: 'Name', cell: (r) => r.name, sort: 'name', rowHeader: true },
  { key: 'organization', header: 'Organization', cell: () => 'Unknown', className: 'hidden md:table-cell' },
  { key: 'createdAt', header: 'Created', cell: (r) => r.createdAt, sort: 'createdAt', sortFirst: 'desc' },
];
const empty = <EmptyState title="No pins found." description="Try adjusting your filters." />;

describe('DataTable', () => {
  const url = '/admin/pins?q=cap&rarity=rare&sort=name&dir=asc&page=2';
  const query = readListQuery(url, pinsQuery);
  // with bulk actions (BulkDataTable) unless `bulk: undefined` asks for the plain table
  const table = (props: Partial<Parameters<typeof BulkDataTable<PinRow>>[0]> = {}) => {
    const all = {
      caption: 'Pins',
      columns,
      rows,
      rowKey: (r: PinRow) => r.id,
      query,
      total: 57,
      empty,
      bulk: { actions: [{ intent: 'feature', label: 'Feature' }, { intent: 'unfeature', label: 'Unfeature' }], rowLabel: (r: PinRow) => r.name, noun: ['pin', 'pins'] as [string, string] },
      ...props,
    };
    const { bulk, ...plain } = all;
    return bulk ? <BulkDataTable {...plain} bulk={bulk} /> : <DataTable {...plain} />;
  };

  it('makes sortable headers links that keep the query, flip the sorted one and go back to page 1', async () => {
    const html = await render(table(), url);
    const ths = tags(html, 'th').filter((t) => attr(t, 'scope') === 'col');
    expect(ths.map((t) => attr(t, 'aria-sort'))).toEqual([null, 'ascending', null, null]);
    const hrefs = tags(html, 'a').map((a) => attr(a, 'href'));
    // sorted by name ascending: the link sorts descending
    expect(hrefs).toContain('/admin/pins?q=cap&rarity=rare&sort=name&dir=desc');
    // Created sorts newest first, which is the list's default: no sort in the URL
    expect(hrefs).toContain('/admin/pins?q=cap&rarity=rare');
    expect(hrefs.filter((h) => h?.includes('page='))).toEqual([]);
    // a header that does not sort is plain text
    expect(html).not.toMatch(/<a[^>]*>Organization/);
  });

  it('marks the other direction on a column sorted descending', async () => {
    const desc = '/admin/pins?sort=name&dir=desc';
    const html = await render(table({ query: readListQuery(desc, pinsQuery) }), desc);
    expect(tags(html, 'th').map((t) => attr(t, 'aria-sort')).filter(Boolean)).toEqual(['descending']);
    // ascending is how a sort other than the default reads without a direction
    expect(tags(html, 'a').map((a) => attr(a, 'href'))).toContain('/admin/pins?sort=name');
  });

  it('puts rows with named checkboxes in a POST form, with the query and "Select all 57 matching"', async () => {
    const html = await render(table(), url);
    const [form] = tags(html, 'form');
    expect(attr(form, 'method')).toBe('post');
    const inputs = tags(html, 'input');
    const boxes = inputs.filter((i) => attr(i, 'name') === 'ids');
    expect(boxes.map((b) => [attr(b, 'value'), attr(b, 'aria-label')])).toEqual([
      ['p1', 'Select Cap Pin'],
      ['p2', 'Select Bat & Ball'],
    ]);
    const hidden = Object.fromEntries(inputs.filter((i) => attr(i, 'type') === 'hidden').map((i) => [attr(i, 'name'), attr(i, 'value')]));
    expect(hidden).toEqual({ q: 'cap', rarity: 'rare', sort: 'name', page: '2' });
    const scope = inputs.find((i) => attr(i, 'name') === 'scope');
    expect(scope && attr(scope, 'value')).toBe('all');
    expect(text(html)).toContain('Select all 57 matching');
    // the bulk buttons post their intent; without JavaScript nothing is counted, so nothing is disabled
    const buttons = tags(html, 'button');
    expect(buttons.map((b) => [attr(b, 'name'), attr(b, 'value'), attr(b, 'type')])).toEqual([
      ['intent', 'feature', 'submit'],
      ['intent', 'unfeature', 'submit'],
    ]);
    expect(buttons.some((b) => /\sdisabled/.test(b))).toBe(false);
    // rows are named by their row header
    expect(html).toMatch(/<th scope="row"[^>]*>Cap Pin<\/th>/);
  });

  it('renders no skeleton rows and no page checkbox on the server', async () => {
    const html = await render(table(), url);
    expect(html).not.toContain('data-skeleton');
    expect(html).not.toContain('animate-pulse');
    expect(html).not.toContain('data-page-select');
    expect(tags(html, 'tr')).toHaveLength(1 + rows.length);
  });

  it('shows the empty state instead of a table when nothing matches', async () => {
    const html = await render(table({ rows: [], total: 0 }), url);
    expect(text(html)).toContain('No pins found.');
    expect(text(html)).toContain('Try adjusting your filters.');
    expect(html).not.toContain('<table');
    expect(html).not.toContain('Select all');
  });

  it('is a plain table without bulk actions', async () => {
    const html = await render(table({ bulk: undefined }), url);
    expect(tags(html, 'form')).toEqual([]);
    expect(tags(html, 'input')).toEqual([]);
  });

  it('shows five skeleton rows while a navigation to this list is pending, and not for a bulk action', async () => {
    const never = () => new Promise<never>(() => undefined);
    const pending = async (submission?: { method: 'get' | 'post' }) => {
      const router = createMemoryRouter([{ path: '*', element: table(), loader: ({ request }) => (new URL(request.url).search ? never() : null), action: never }], {
        initialEntries: [url.replace(/\?.*/, '')],
      });
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (submission?.method === 'post') void router.navigate('/admin/pins', { formMethod: 'post', formData: new FormData() });
      else void router.navigate('/admin/pins?page=3');
      await new Promise((resolve) => setTimeout(resolve, 0));
      // RouterProvider is the browser's router: React warns that its layout effects do not run here
      const warn = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      const html = renderToString(<RouterProvider router={router} />);
      warn.mockRestore();
      router.dispose();
      return html;
    };
    const loading = await pending();
    expect(loading.match(/data-skeleton/g)).toHaveLength(5);
    expect(loading).toContain('aria-busy="true"');
    expect(loading).not.toContain('Cap Pin');
    const posting = await pending({ method: 'post' });
    expect(posting).not.toContain('data-skeleton');
    expect(posting).toContain('Cap Pin');
  });
});

describe('Pagination', () => {
  const url = '/admin/users?q=casey&sort=name&page=2';
  const query = readListQuery(url, pinsQuery);

  it('links first, previous, the pages, next and last, keeping the query, and says "Page X of Y"', async () => {
    const html = await render(<Pagination paging={paginate({ total: 57, page: query.page, size: query.size })} query={query} />, url);
    expect(text(html)).toContain('Page 2 of 3');
    const links = tags(html, 'a').map((a) => [attr(a, 'aria-label'), attr(a, 'href'), attr(a, 'aria-current')]);
    expect(links).toEqual([
      ['First page', '/admin/users?q=casey&sort=name', null],
      ['Previous page', '/admin/users?q=casey&sort=name', null],
      ['Page 1', '/admin/users?q=casey&sort=name', null],
      ['Page 2', '/admin/users?q=casey&sort=name&page=2', 'page'],
      ['Page 3', '/admin/users?q=casey&sort=name&page=3', null],
      ['Next page', '/admin/users?q=casey&sort=name&page=3', null],
      ['Last page', '/admin/users?q=casey&sort=name&page=3', null],
    ]);
    expect(attr(tags(html, 'nav')[0], 'aria-label')).toBe('Pagination');
  });

  it('shows at most 5 page links and disables the ends it is at', async () => {
    const html = await render(<Pagination paging={paginate({ total: 1000, page: 1, size: 20 })} hrefFor={(p) => `/list?page=${p}`} />, '/list');
    expect(text(html)).toContain('Page 1 of 50');
    const numbered = tags(html, 'a').filter((a) => /^Page \d+$/.test(attr(a, 'aria-label') ?? ''));
    expect(numbered.map((a) => attr(a, 'href'))).toEqual(['/list?page=1', '/list?page=2', '/list?page=3', '/list?page=4', '/list?page=5']);
    const disabled = tags(html, 'span').filter((s) => attr(s, 'aria-disabled') === 'true');
    expect(disabled.map((s) => attr(s, 'aria-label'))).toEqual(['First page', 'Previous page']);
    expect(tags(html, 'a').find((a) => attr(a, 'aria-label') === 'Last page')).toContain('href="/list?page=50"');
  });

  it('renders nothing for a list of one page', async () => {
    expect(await render(<Pagination paging={paginate({ total: 20, page: 1, size: 20 })} hrefFor={(p) => `?page=${p}`} />, '/list')).toBe('');
    expect(await render(<Pagination paging={paginate({ total: 0, page: 1, size: 20 })} hrefFor={(p) => `?page=${p}`} />, '/list')).toBe('');
  });
});

describe('ListSearch', () => {
  it('is a GET form that searches from page 1 and keeps the sort and the filters it does not show', async () => {
    const url = '/admin/pins?q=cap&rarity=rare&organizationId=o1&sort=name&dir=desc&size=50&page=3';
    const html = await render(
      <ListSearch query={readListQuery(url, pinsQuery)} placeholder="Search pins" controls={['rarity']}>
        <select name="rarity" defaultValue="rare" aria-label="Rarity" />
      </ListSearch>,
      url,
    );
    const [form] = tags(html, 'form');
    expect([attr(form, 'method'), attr(form, 'action'), attr(form, 'role')]).toEqual(['get', '/admin/pins', 'search']);
    const [search] = tags(html, 'input').filter((i) => attr(i, 'type') === 'search');
    expect([attr(search, 'name'), attr(search, 'value')]).toEqual(['q', 'cap']);
    expect(html).toContain(`<label for="${attr(search, 'id')}" class="label">Search</label>`);
    const hidden = tags(html, 'input')
      .filter((i) => attr(i, 'type') === 'hidden')
      .map((i) => [attr(i, 'name'), attr(i, 'value')]);
    expect(hidden).toEqual([
      ['organizationId', 'o1'],
      ['sort', 'name'],
      ['dir', 'desc'],
      ['size', '50'],
    ]);
    expect(html).toMatch(/<button type="submit"[^>]*>Search<\/button>/);
  });
});

describe('Tabs', () => {
  it('links each tab with ?tab=, marks the current one and shows its count', async () => {
    const html = await render(
      <Tabs
        label="Collection lists"
        current="wanted"
        items={[
          { key: 'owned', label: 'Owned', count: 1234 },
          { key: 'wanted', label: 'Wanted', count: 2 },
          { key: 'trading', label: 'Trading', count: 0 },
        ]}
        countTestId={(key) => `count-${key}`}
      />,
      '/collection?tab=wanted',
    );
    expect(attr(tags(html, 'nav')[0], 'aria-label')).toBe('Collection lists');
    expect(tags(html, 'a').map((a) => [attr(a, 'href'), attr(a, 'aria-current')])).toEqual([
      ['/collection?tab=owned', null],
      ['/collection?tab=wanted', 'page'],
      ['/collection?tab=trading', null],
    ]);
    expect(text(html)).toContain('Owned 1,234');
    expect(text(html)).toContain('Trading 0');
    expect(html).toMatch(/data-testid="count-wanted"[^>]*>2</);
  });

  it('reads counts as the page says them, and takes other links', async () => {
    const html = await render(
      <Tabs label="Pin lists" current="new" formatCountLabel={(n) => `${n} pins`} items={[{ key: 'new', label: 'Newest', count: 3, href: '/?tab=new#explore' }]} />,
      '/',
    );
    expect(text(html)).toContain('Newest 3 pins');
    expect(attr(tags(html, 'a')[0], 'href')).toBe('/?tab=new#explore');
  });
});

describe('EmptyState and StatCard', () => {
  it('EmptyState shows a heading, the description and the action', async () => {
    const html = await render(
      <EmptyState title="No pins found." description="Add your first pin to get started." action={<a href="/admin/pins/new">Add Pin</a>} data-testid="empty" />,
      '/',
    );
    expect(html).toMatch(/<h2[^>]*>No pins found.<\/h2>/);
    expect(text(html)).toContain('Add your first pin to get started.');
    expect(html).toContain('href="/admin/pins/new"');
    expect(html).toContain('data-testid="empty"');
  });

  it('StatCard is a term and its figure, with a hint and a link', async () => {
    const html = await render(
      <dl>
        <StatCard label="Total Pins" value={12345} hint="3 added today" link={{ to: '/admin/pins', label: 'Manage pins' }} valueTestId="stat-pins" />
      </dl>,
      '/admin',
    );
    expect(html).toMatch(/<dt[^>]*>Total Pins<\/dt>/);
    expect(html).toMatch(/<dd[^>]*data-testid="stat-pins"[^>]*>12,345<\/dd>/);
    expect(text(html)).toContain('3 added today');
    expect(html).toContain('href="/admin/pins"');
  });
});

describe('Dialog and ConfirmStep without JavaScript', () => {
  const confirm = (serverOpen: boolean) => (
    <ConfirmStep
      trigger="Remove"
      title="Remove from collection?"
      description="Cap Pin will be removed from your collection."
      confirmLabel="Remove"
      fields={{ intent: 'remove', pinId: 'p1' }}
      href="?tab=owned&confirm=remove&pin=p1"
      closeHref="?tab=owned"
      serverOpen={serverOpen}
      danger
    />
  );

  it('is a link to its own URL until then', async () => {
    const html = await render(confirm(false), '/collection?tab=owned');
    expect(tags(html, 'a').map((a) => attr(a, 'href'))).toEqual(['/collection?tab=owned&confirm=remove&pin=p1']);
    expect(text(html).trim()).toBe('Remove');
    expect(html).not.toContain('<form');
  });

  it('is a confirm step with the POST form and Cancel at that URL', async () => {
    const html = await render(confirm(true), '/collection?tab=owned&confirm=remove&pin=p1');
    const [section] = tags(html, 'section');
    expect(attr(section, 'role')).toBe('alertdialog');
    const titleId = attr(section, 'aria-labelledby');
    expect(html).toMatch(new RegExp(`<h2 id="${titleId}"[^>]*>Remove from collection\\?</h2>`));
    expect(text(html)).toContain('Cap Pin will be removed from your collection.');
    expect(attr(tags(html, 'form')[0], 'method')).toBe('post');
    const hidden = tags(html, 'input').map((i) => [attr(i, 'name'), attr(i, 'value')]);
    expect(hidden).toEqual([
      ['intent', 'remove'],
      ['pinId', 'p1'],
    ]);
    expect(tags(html, 'a').map((a) => attr(a, 'href'))).toEqual(['/collection?tab=owned']);
    expect(html).toMatch(/<button type="submit"[^>]*>Remove<\/button>/);
  });

  it('a Dialog step is a labelled region holding its content and DialogCancel', async () => {
    const html = await render(
      <Dialog title="Edit organization" trigger="Edit" href="?dialog=edit-org&id=o1" closeHref="/admin/pins?tab=organizations" serverOpen>
        <p>The form</p>
        <DialogCancel />
      </Dialog>,
      '/admin/pins?dialog=edit-org&id=o1',
    );
    const [section] = tags(html, 'section');
    expect(attr(section, 'role')).toBeNull();
    expect(attr(section, 'aria-labelledby')).toBeTruthy();
    expect(text(html)).toContain('The form');
    expect(tags(html, 'a').map((a) => [attr(a, 'href'), text(html).includes('Cancel')])).toEqual([['/admin/pins?tab=organizations', true]]);
  });
});

describe('Field', () => {
  const schema = z.object({ email: z.string({ required_error: 'Email is required' }).email('Enter a valid email') });
  function EmailForm({ lastResult }: { lastResult?: SubmissionResult<string[]> }) {
    const [form, fields] = useForm({ id: 'f', lastResult, onValidate: ({ formData }) => parseWithZod(formData, { schema }) });
    return (
      <form id={form.id}>
        <Field label="Email" field={fields.email} type="email" autoComplete="email" description="We never share it." />
      </form>
    );
  }

  it('labels the control and describes it by its hint', async () => {
    const html = await render(<EmailForm />, '/signup');
    const [input] = tags(html, 'input');
    expect(attr(input, 'type')).toBe('email');
    expect(attr(input, 'autoComplete')).toBe('email');
    expect(html).toContain(`<label for="${attr(input, 'id')}" class="label">Email</label>`);
    expect(attr(input, 'aria-describedby')).toBe('f-email-description');
    expect(attr(input, 'aria-invalid')).toBeNull();
    expect(html).toContain('id="f-email-description"');
  });

  it('shows the action’s error, marks the control invalid and describes it by both', async () => {
    const lastResult = parseWithZod(new URLSearchParams({ email: 'nope' }) as unknown as FormData, { schema }).reply();
    const html = await render(<EmailForm lastResult={lastResult} />, '/signup');
    const [input] = tags(html, 'input');
    expect(attr(input, 'aria-invalid')).toBe('true');
    expect(attr(input, 'aria-describedby')).toBe('f-email-error f-email-description');
    expect(html).toMatch(/<p id="f-email-error" class="field-error" role="alert">Enter a valid email<\/p>/);
  });
});
