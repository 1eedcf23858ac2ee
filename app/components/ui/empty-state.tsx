import type { HTMLAttributes, ReactNode } from 'react';
import './kit'; // one chunk with the other small controls (kit.ts)

export interface EmptyStateProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title'> {
  title: ReactNode;
  description?: ReactNode;
  /** what to do next, e.g. a link to add the first item */
  action?: ReactNode;
  headingLevel?: 2 | 3;
}

/** What a list shows when it has nothing to show: a title, a line on why or what next, and an action. */
export function EmptyState({ title, description, action, headingLevel = 2, className, ...rest }: EmptyStateProps) {
  const Heading = headingLevel === 3 ? 'h3' : 'h2';
  return (
    <div className={`card px-6 py-12 text-center ${className ?? ''}`} {...rest}>
      <Heading className="text-lg font-semibold text-slate-900">{title}</Heading>
      {description ? <p className="mt-2 text-sm text-slate-600">{description}</p> : null}
      {action ? <div className="mt-4 flex flex-wrap justify-center gap-3">{action}</div> : null}
    </div>
  );
}
