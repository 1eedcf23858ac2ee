import { Form, Link, NavLink, useLocation } from '@remix-run/react';
import type { Role } from '~/utils/constants';
import { isAdminRole, isVendorRole } from '~/auth/permissions';
import { displayName } from '~/utils/user';
import { DetailsMenu } from '~/components/details-menu';

export interface NavUser {
  id: string;
  email: string;
  nickname: string | null;
  firstName: string | null;
  lastName: string | null;
  role: Role;
  profileImageUrl: string | null;
  /** pieces in the cart (the Cart link's count) */
  cartCount?: number;
  /** unread notifications (trades): the Trades link's count */
  unreadNotifications?: number;
}

interface NavProps {
  user: NavUser | null;
  earnedBadges: number;
}

const MENU_ITEM = 'rounded px-2 py-1.5 hover:bg-slate-100';

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `rounded-md px-3 py-2 text-sm font-medium ${isActive ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-100'}`;

function navLinks(user: NavUser | null, earnedBadges: number) {
  const links: { to: string; label: string; mobileLabel?: string; badge?: number; badgeLabel?: string }[] = [{ to: '/identify', label: 'Identify Pin' }];
  if (user) {
    links.push({ to: '/collection', label: 'My Collection' });
    links.push({ to: '/badges', label: 'Badges', badge: earnedBadges });
  }
  links.push({ to: '/browse', label: 'Browse', mobileLabel: 'Browse Pins' });
  links.push({ to: '/marketplace', label: 'Marketplace' });
  if (user) links.push({ to: '/teams', label: 'Teams' });
  if (user) {
    const unread = user.unreadNotifications ?? 0;
    links.push({ to: '/trades', label: 'Trades', badge: unread > 0 ? unread : undefined, badgeLabel: `${unread} unread` });
  }
  if (isVendorRole(user?.role)) links.push({ to: '/vendor', label: 'Vendor', mobileLabel: 'Vendor Dashboard' });
  if (isAdminRole(user?.role)) {
    links.push({ to: '/admin', label: 'Admin', mobileLabel: 'Admin Dashboard' });
  }
  return links;
}

function CartLink({ count }: { count: number }) {
  return (
    <NavLink to="/cart" className={linkClass} aria-label={`Cart, ${count} ${count === 1 ? 'item' : 'items'}`} data-testid="nav-cart">
      Cart
      <span className="badge ml-1 bg-brand-100 text-brand-800">{count}</span>
    </NavLink>
  );
}

function SignOutForm({ className }: { className: string }) {
  return (
    <Form method="post" action="/api/logout" reloadDocument>
      <button type="submit" className={className}>
        Log out
      </button>
    </Form>
  );
}

/** The sign-in link brings the visitor back to the page they were on. */
function useSignInHref(): string {
  const { pathname, search } = useLocation();
  if (pathname === '/' || pathname.startsWith('/api/') || pathname === '/signup') return '/api/login';
  return `/api/login?redirectTo=${encodeURIComponent(pathname + search)}`;
}

export function NavBar({ user, earnedBadges }: NavProps) {
  const links = navLinks(user, earnedBadges);
  const signInHref = useSignInHref();
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/95 backdrop-blur">
      <nav aria-label="Main" className="mx-auto flex h-14 max-w-7xl items-center gap-2 px-4">
        <Link to="/" className="mr-4 flex items-center gap-2 text-lg font-extrabold text-brand-700">
          <span aria-hidden="true" className="inline-block h-7 w-7 rounded-full border-4 border-amber-400 bg-brand-600" />
          PinDex
        </Link>
        <div className="hidden flex-1 items-center gap-1 md:flex">
          {links.map((l) => (
            <NavLink key={l.to} to={l.to} className={linkClass} prefetch="intent">
              {l.label}
              {l.badge !== undefined ? (
                <span className="badge ml-1 bg-amber-100 text-amber-800" aria-label={l.badgeLabel ?? `${l.badge} earned`}>
                  {l.badge}
                </span>
              ) : null}
            </NavLink>
          ))}
        </div>
        <div className="ml-auto flex items-center gap-2">
          {user ? <CartLink count={user.cartCount ?? 0} /> : null}
          {user ? (
            <DetailsMenu className="relative hidden md:block" name="avatar">
              <summary className="flex cursor-pointer list-none items-center gap-2 rounded-full p-1 hover:bg-slate-100" aria-label="Account menu">
                <Avatar user={user} />
              </summary>
              <div className="absolute right-0 mt-2 w-60 rounded-md border border-slate-200 bg-white p-2 shadow-lg">
                <p className="px-2 text-sm font-semibold text-slate-900">{displayName(user)}</p>
                <p className="truncate px-2 pb-2 text-xs text-slate-500">{user.email}</p>
                <div className="flex flex-col border-t border-slate-100 pt-2 text-sm">
                  <Link className={MENU_ITEM} to="/profile">
                    Profile
                  </Link>
                  <Link className={MENU_ITEM} to="/collection">
                    My Collection
                  </Link>
                  <Link className={MENU_ITEM} to="/orders">
                    My Orders
                  </Link>
                  <Link className={MENU_ITEM} to="/inventory">
                    My Purchases
                  </Link>
                  <Link className={MENU_ITEM} to="/vendor">
                    {isVendorRole(user.role) ? 'Vendor Dashboard' : 'Become a Vendor'}
                  </Link>
                  {isAdminRole(user.role) ? (
                    <Link className={MENU_ITEM} to="/admin">
                      Admin Dashboard
                    </Link>
                  ) : null}
                  <SignOutForm className="w-full rounded px-2 py-1.5 text-left text-red-700 hover:bg-red-50" />
                </div>
              </div>
            </DetailsMenu>
          ) : (
            <a href={signInHref} className="btn-primary hidden md:inline-flex">
              Sign In
            </a>
          )}
          <DetailsMenu className="md:hidden" name="mobile">
            <summary className="flex cursor-pointer list-none items-center rounded-md p-2 hover:bg-slate-100" aria-label="Open menu">
              <svg aria-hidden="true" width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2">
                <path d="M4 6h16M4 12h16M4 18h16" />
              </svg>
            </summary>
            <div className="fixed inset-x-0 top-14 z-50 border-b border-slate-200 bg-white p-4 shadow-lg">
              {user ? (
                <p className="mb-2 text-sm text-slate-600">
                  Signed in as <strong>{displayName(user)}</strong>
                </p>
              ) : null}
              <div className="flex flex-col gap-1">
                {links.map((l) => (
                  <NavLink key={l.to} to={l.to} className={linkClass}>
                    {l.mobileLabel ?? l.label}
                    {l.badge !== undefined ? <span className="badge ml-1 bg-amber-100 text-amber-800">{l.badge}</span> : null}
                  </NavLink>
                ))}
                {user ? (
                  <NavLink to="/profile" className={linkClass}>
                    Profile
                  </NavLink>
                ) : null}
              </div>
              <div className="mt-3 border-t border-slate-100 pt-3">
                {user ? (
                  <Form method="post" action="/api/logout" reloadDocument>
                    <button type="submit" className="btn-secondary w-full">
                      Sign Out
                    </button>
                  </Form>
                ) : (
                  <a href={signInHref} className="btn-primary w-full">
                    Sign In
                  </a>
                )}
              </div>
            </div>
          </DetailsMenu>
        </div>
      </nav>
    </header>
  );
}

export function BottomBar({ user }: { user: NavUser | null }) {
  const items = [
    { to: '/identify', label: 'Identify' },
    ...(user ? [{ to: '/collection', label: 'Collection' }] : []),
    { to: '/browse', label: 'Browse' },
    { to: '/marketplace', label: 'Shop' },
  ];
  return (
    <nav aria-label="Quick" className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white md:hidden">
      <ul className="flex">
        {items.map((i) => (
          <li key={i.to} className="flex-1">
            <NavLink
              to={i.to}
              className={({ isActive }) => `block py-3 text-center text-xs font-semibold ${isActive ? 'text-brand-700' : 'text-slate-600'}`}
            >
              {i.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Avatar({ user, size = 32 }: { user: NavUser; size?: number }) {
  const name = displayName(user);
  if (user.profileImageUrl) {
    return <img src={user.profileImageUrl} alt="" width={size} height={size} className="rounded-full object-cover" style={{ width: size, height: size }} />;
  }
  return (
    <span
      aria-hidden="true"
      className="inline-flex items-center justify-center rounded-full bg-brand-600 font-bold text-white"
      style={{ width: size, height: size, fontSize: size / 2.4 }}
    >
      {name.slice(0, 1).toUpperCase()}
    </span>
  );
}
