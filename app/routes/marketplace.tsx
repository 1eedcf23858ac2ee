import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { optionalUser } from '~/http/guards.server';
import { SignInPrompt } from '~/components/sign-in-prompt';

export const meta: MetaFunction = () => [{ title: 'Pin Marketplace | PinDex' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await optionalUser(request);
  return json({ signedIn: !!user });
}

export default function Marketplace() {
  const { signedIn } = useLoaderData<typeof loader>();
  if (!signedIn) return <SignInPrompt title="Access Required" description="Sign in to browse and buy pins from approved vendors." redirectTo="/marketplace" />;
  return (
    <div>
      <h1 className="text-2xl font-bold text-slate-900">Pin Marketplace</h1>
    </div>
  );
}
