/** Comment and reaction forms on the pin page (browser-safe). */
import { z } from 'zod';
import { COMMENT_MAX, REACTION_TYPES } from '~/utils/constants';

export { COMMENT_MAX };


export const commentSchema = z.object({
  content: z
    .string({ required_error: 'Write a comment first' })
    .trim()
    .min(1, 'Write a comment first')
    .max(COMMENT_MAX, `Comments are at most ${COMMENT_MAX.toLocaleString('en-US')} characters`),
});

export const reactionSchema = z.object({
  type: z.enum(REACTION_TYPES, { errorMap: () => ({ message: 'Reaction must be like, favorite or want' }) }),
});
