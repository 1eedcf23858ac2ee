import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { json } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { optionalUser } from '~/http/guards.server';
import { SignInPrompt } from '~/components/sign-in-prompt';

export const meta: MetaFunction = () => [{ title: 'My Pin Collection | PinDex' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await optionalUser(request);
  return json({ signedIn: !!user });
}

export default function Inventory() {
  const { signedIn } = useLoaderData<typeof loader>();
  if (!signedIn) return <SignInPrompt title="Inventory Access Required" description="Sign in to see the pins you have bought." redirectTo="/inventory" />;
  return (
    <div>
      <h1 className="text-2xl font-bold text-slate-900">My Pin Collection</h1>
    </div>
  );
}
