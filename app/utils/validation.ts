/**
 * Validation with zod for services and actions: one schema per form (app/forms), and these two
 * helpers to turn its failures into the typed `Invalid` error with field issues.
 */
import type { ZodTypeAny, z } from 'zod';
import { Invalid, type FieldIssues } from '~/services/errors';

/** Zod issues as field -> messages (the first path segment names the field). */
export function zodIssues(error: z.ZodError): FieldIssues {
  const issues: FieldIssues = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? String(issue.path[0]) : 'form';
    (issues[key] ??= []).push(issue.message);
  }
  return issues;
}

/** Parses a value with a zod schema, throwing Invalid with the schema's messages. */
export function parseWith<S extends ZodTypeAny>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = zodIssues(result.error);
    const first = Object.values(issues)[0]?.[0] ?? 'Invalid input';
    throw new Invalid(first, issues);
  }
  return result.data;
}
