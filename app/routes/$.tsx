import type { MetaFunction } from '@remix-run/node';
import { useRouteError } from '@remix-run/react';
import { ErrorPage } from '~/components/error-page';
import '~/root';

export const meta: MetaFunction = () => [{ title: '404 - Page not found | PinDex' }];

// Any path no other route claims: '404 - Page not found', with the status code 404.
export async function loader() {
  throw new Response('Not found', { status: 404 });
}

export default function NotFound() {
  return null;
}

export function ErrorBoundary() {
  return <ErrorPage error={useRouteError()} />;
}
