import type { SubmissionResult } from '@conform-to/react';
import { ONBOARDING_ROLES, ONBOARDING_ROLE_LABELS } from '~/forms/onboarding-roles';
import { ROLE_LABELS, type Role, isOneOf } from '~/utils/constants';

export interface OnboardingInfo {
  defaultNickname: string;
  role: Role;
  email: string;
}

/**
 * Shown instead of every page until a signed-in user has finished setup (root.tsx). Posts to the
 * root route's action (`action="/"` without `?index`), which works on every path. The server alone
 * renders it: a plain form whose validation is the server's (OnboardingSchema, answered as a conform
 * reply), so the browser keeps the HTML and loads none of this code (root.tsx, OnboardingScreen).
 * The root shows the 'Error completing setup' toast of a failure that is not about one field.
 */
export function Onboarding({ info, result }: { info: OnboardingInfo; result?: SubmissionResult<string[]> | null }) {
  const keepsRole = !isOneOf(ONBOARDING_ROLES, info.role);
  // a failure that is not about one field (e.g. the server refused) is shown as 'Error completing setup'
  const formError = result?.error?.['']?.[0] ?? null;
  const nicknameError = result?.error?.nickname?.[0];
  const roleError = result?.error?.role?.[0];
  const submitted = (name: string) => {
    const value = result?.initialValue?.[name];
    return typeof value === 'string' ? value : undefined;
  };
  return (
    <div className="mx-auto max-w-lg py-8">
      <div className="card p-6 sm:p-8">
        <h1 className="text-2xl font-bold text-slate-900">Set up your account</h1>
        <p className="mt-1 text-sm text-slate-600">Finish setting up your account ({info.email}) to get started.</p>
        <form method="post" action="/" noValidate className="mt-6 space-y-4">
          <input type="hidden" name="intent" value="completeOnboarding" />
          {formError ? (
            <div role="alert" className="rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-800">
              <p className="font-semibold">Error completing setup</p>
              <p>{formError}</p>
            </div>
          ) : null}
          <div>
            <label htmlFor="onboarding-nickname" className="label">
              Display name
            </label>
            <input
              id="onboarding-nickname"
              name="nickname"
              type="text"
              className="input"
              autoComplete="nickname"
              defaultValue={submitted('nickname') ?? info.defaultNickname}
              aria-invalid={nicknameError ? true : undefined}
              aria-describedby={nicknameError ? 'onboarding-nickname-error' : 'onboarding-nickname-hint'}
            />
            <p id="onboarding-nickname-hint" className="mt-1 text-xs text-slate-500">
              2 to 50 characters; other collectors see this name.
            </p>
            {nicknameError ? (
              <p id="onboarding-nickname-error" className="field-error" role="alert">
                {nicknameError}
              </p>
            ) : null}
          </div>
          {keepsRole ? (
            <div>
              <p className="label">Role</p>
              <p className="text-sm text-slate-700">
                You keep your role: <strong>{ROLE_LABELS[info.role]}</strong>
              </p>
              <input type="hidden" name="role" value="player" />
            </div>
          ) : (
            <div>
              <label htmlFor="onboarding-role" className="label">
                Role
              </label>
              <select
                id="onboarding-role"
                name="role"
                className="input"
                defaultValue={submitted('role') ?? info.role}
                aria-invalid={roleError ? true : undefined}
                aria-describedby={roleError ? 'onboarding-role-error' : undefined}
              >
                {ONBOARDING_ROLES.map((r) => (
                  <option key={r} value={r}>
                    {ONBOARDING_ROLE_LABELS[r]}
                  </option>
                ))}
              </select>
              {roleError ? (
                <p id="onboarding-role-error" className="field-error" role="alert">
                  {roleError}
                </p>
              ) : null}
            </div>
          )}
          <button type="submit" className="btn-primary w-full">
            Complete Setup
          </button>
        </form>
        <form method="post" action="/api/logout" className="mt-4 text-center">
          <button type="submit" className="text-sm text-slate-500 hover:underline">
            Sign out
          </button>
        </form>
      </div>
    </div>
  );
}
