/** Account forms (sign in, create account, onboarding, profile): shared by conform and the server. */
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '~/utils/constants';

export { MIN_PASSWORD_LENGTH };
import { ONBOARDING_ROLES } from './onboarding-roles';

export { ONBOARDING_ROLES, ONBOARDING_ROLE_LABELS, type OnboardingRole } from './onboarding-roles';

const email = z
  .string({ required_error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .email('Enter a valid email address')
  .transform((v) => v.toLowerCase());

export const LoginSchema = z.object({
  email,
  password: z.string({ required_error: 'Password is required' }).min(1, 'Password is required').max(1024, 'Password is too long'),
  redirectTo: z.string().optional(),
});

export const SignupSchema = z.object({
  email,
  password: z
    .string({ required_error: 'Password is required' })
    .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
    .max(1024, 'Password is too long'),
  firstName: z.string({ required_error: 'First name is required' }).trim().min(1, 'First name is required').max(100, 'First name is too long'),
  lastName: z.string({ required_error: 'Last name is required' }).trim().min(1, 'Last name is required').max(100, 'Last name is too long'),
  redirectTo: z.string().optional(),
});

export const NicknameSchema = z
  .string({ required_error: 'Nickname must be at least 2 characters', invalid_type_error: 'Nickname must be at least 2 characters' })
  .trim()
  .min(2, 'Nickname must be at least 2 characters')
  .max(50, 'Nickname too long');

export const OnboardingSchema = z.object({
  nickname: NicknameSchema,
  role: z.enum(ONBOARDING_ROLES, {
    errorMap: () => ({ message: 'Please choose a role' }),
  }),
});

export const ProfileSchema = z.object({
  nickname: NicknameSchema,
});
