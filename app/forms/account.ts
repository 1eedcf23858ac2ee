/** Account management forms (change password, change e-mail, delete, forgotten password). */
import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from './auth';

const newPassword = z
  .string({ required_error: 'Password is required' })
  .min(MIN_PASSWORD_LENGTH, `Password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(1024, 'Password is too long');
const currentPassword = z
  .string({ required_error: 'Enter your current password' })
  .min(1, 'Enter your current password')
  .max(1024, 'Password is too long');
const email = z
  .string({ required_error: 'Email is required' })
  .trim()
  .min(1, 'Email is required')
  .max(254, 'Email is too long')
  .email('Enter a valid email address')
  .transform((v) => v.toLowerCase());

export const ChangePasswordSchema = z
  .object({ currentPassword, newPassword, confirmPassword: z.string({ required_error: 'Repeat the new password' }) })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'The passwords do not match' });

export const ChangeEmailSchema = z.object({
  email,
  /** required when the account has a password (an account made with an external provider has none) */
  currentPassword: z.string().max(1024, 'Password is too long').optional(),
});

export const DeleteAccountSchema = z.object({
  currentPassword: z.string().max(1024, 'Password is too long').optional(),
  /** the account's e-mail typed again: the confirmation for an account without a password */
  confirmEmail: z.string().trim().max(254).optional(),
});

export const ForgotPasswordSchema = z.object({ email });

export const ResetPasswordSchema = z
  .object({
    token: z.string({ required_error: 'This reset link is invalid or has expired.' }).min(10, 'This reset link is invalid or has expired.').max(200),
    newPassword,
    confirmPassword: z.string({ required_error: 'Repeat the new password' }),
  })
  .refine((v) => v.newPassword === v.confirmPassword, { path: ['confirmPassword'], message: 'The passwords do not match' });
