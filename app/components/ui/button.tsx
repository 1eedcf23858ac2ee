import { forwardRef, type ButtonHTMLAttributes } from 'react';
import './kit'; // one chunk with the other small controls (kit.ts)

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';
export type ButtonSize = 'md' | 'sm';

const VARIANT: Record<ButtonVariant, string> = {
  primary: 'btn-primary',
  secondary: 'btn-secondary',
  danger: 'btn-danger',
  ghost: 'btn text-slate-700 hover:bg-slate-100',
};
const SIZE: Record<ButtonSize, string> = { md: '', sm: 'px-3 py-1 text-xs' };

/** The classes of a button, also for a link that looks like one (`<Link className={buttonClass('secondary')}>`). */
export function buttonClass(variant: ButtonVariant = 'secondary', size: ButtonSize = 'md', className?: string) {
  return [VARIANT[variant], SIZE[size], className].filter(Boolean).join(' ');
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
  /** the form it submits is on its way: the button is disabled and says so (`pendingLabel`) */
  pending?: boolean;
  pendingLabel?: React.ReactNode;
}

/**
 * A button in one of the app's styles. `type` defaults to "submit", as in HTML, since most buttons
 * here submit a server-rendered form; pass `type="button"` for one that only runs script.
 */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'secondary', size = 'md', pending = false, pendingLabel, className, disabled, children, type = 'submit', ...rest },
  ref,
) {
  return (
    <button ref={ref} type={type} className={buttonClass(variant, size, className)} disabled={disabled || pending} aria-busy={pending || undefined} {...rest}>
      {pending && pendingLabel !== undefined ? pendingLabel : children}
    </button>
  );
});
