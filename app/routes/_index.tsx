import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';

export const meta: MetaFunction = () => [{ title: 'PinDex AI: identify and collect baseball trading pins' }];

export default function Home() {
  return (
    <div className="space-y-10">
      <section className="rounded-2xl bg-gradient-to-br from-brand-700 to-brand-500 px-6 py-10 text-white">
        <h1 className="text-3xl font-extrabold sm:text-4xl">PinDex AI</h1>
        <p className="mt-2 max-w-xl text-brand-100">Identify any baseball trading pin from a photo, explore the pin database and build your collection.</p>
        <Link to="/browse" className="btn mt-6 bg-white text-brand-700 hover:bg-brand-50">
          Browse the pin database
        </Link>
      </section>
    </div>
  );
}
