/** The daily challenges query (GET /api/challenges?date=, GET /api/users/{id}/challenges?date=). */
import { z } from 'zod';

export const ChallengeQuerySchema = z.object({
  date: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'Write the date as YYYY-MM-DD')
    .refine((d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d), 'Write the date as YYYY-MM-DD')
    .optional(),
});
