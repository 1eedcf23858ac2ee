/** Roles a user may choose at onboarding (no zod here: the root bundle imports this on every page). */
export const ONBOARDING_ROLES = ['player', 'assistant_coach', 'manager'] as const;
export type OnboardingRole = (typeof ONBOARDING_ROLES)[number];

export const ONBOARDING_ROLE_LABELS: Record<OnboardingRole, string> = {
  player: 'Player',
  assistant_coach: 'Assistant Coach',
  manager: 'Manager',
};
