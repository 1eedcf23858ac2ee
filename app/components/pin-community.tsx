import { getFormProps, getTextareaProps, useForm, type SubmissionResult } from '~/components/ui/form-state';
import { Form, Link } from '@remix-run/react';
import { Button, buttonClass } from '~/components/ui/button';
import { ConfirmStep } from '~/components/ui/confirm-step';
import { FieldError, FormErrors } from '~/components/ui/field';
import type { PinCommentDto, PinReactionsDto } from '~/types/community';
import { COMMENT_MAX, REACTION_TYPES, type ReactionType } from '~/utils/constants';
import { formatDate } from '~/utils/format';

const REACTION_LABEL: Record<ReactionType, string> = { like: 'Like', favorite: 'Favorite', want: 'Want' };

export interface PinCommunityProps {
  pinId: string;
  signedIn: boolean;
  comments: PinCommentDto[];
  reactions: PinReactionsDto;
  /** the comment shown as an edit form (?editComment=) */
  editCommentId: string | null;
  /** the comment whose delete confirmation the server renders (?confirm=deleteComment&comment=) */
  confirmDeleteCommentId?: string | null;
  /** the action's answer to a comment form: which form, and conform's reply */
  result?: { intent: string; commentId?: string; lastResult: SubmissionResult<string[]> } | null;
}

/** Reactions and comments on a pin page: plain POST forms, so they work without JavaScript. */
export function PinCommunity({ pinId, signedIn, comments, reactions, editCommentId, confirmDeleteCommentId = null, result }: PinCommunityProps) {
  const here = `/pins/${pinId}`;
  return (
    <section aria-labelledby="community-heading" className="space-y-4 border-t border-slate-200 pt-6">
      <h2 id="community-heading" className="text-lg font-semibold text-slate-900">
        Reactions and comments
      </h2>
      <div id="reactions" className="flex flex-wrap gap-2" data-testid="pin-reactions">
        {REACTION_TYPES.map((type) => {
          const on = reactions.mine.includes(type);
          const content = (
            <>
              {REACTION_LABEL[type]} <span className="badge bg-slate-100 text-slate-700">{reactions.counts[type]}</span>
            </>
          );
          return signedIn ? (
            <Form key={type} method="post" action={here} preventScrollReset>
              <input type="hidden" name="intent" value="react" />
              <Button name="type" value={type} size="sm" variant={on ? 'primary' : 'secondary'} aria-pressed={on}>
                {content}
              </Button>
            </Form>
          ) : (
            <span key={type} className="inline-flex items-center gap-1 rounded-md border border-slate-200 px-3 py-1 text-xs">
              {content}
            </span>
          );
        })}
      </div>

      <div id="comments" className="space-y-3">
        <h3 className="text-base font-semibold">Comments ({comments.length})</h3>
        {comments.length ? (
          <ul className="space-y-3">
            {comments.map((c) => (
              <li key={c.id} className="card p-3" data-testid="pin-comment">
                <p className="text-xs text-slate-500">
                  {c.author.nickname ? (
                    <Link to={`/u/${encodeURIComponent(c.author.nickname)}`} className="font-semibold text-slate-800 hover:underline">
                      {c.author.name}
                    </Link>
                  ) : (
                    <span className="font-semibold text-slate-800">{c.author.name}</span>
                  )}{' '}
                  · {formatDate(c.createdAt)}
                  {c.edited ? ' · edited' : ''}
                </p>
                {c.canEdit && editCommentId === c.id ? (
                  <CommentForm pinId={pinId} intent="editComment" commentId={c.id} defaultValue={c.content} result={result?.intent === 'editComment' && result.commentId === c.id ? result.lastResult : undefined} cancelHref={`${here}#comments`} />
                ) : (
                  <p className="mt-1 whitespace-pre-wrap break-words text-sm text-slate-800">{c.content}</p>
                )}
                {(c.canEdit || c.canDelete) && editCommentId !== c.id ? (
                  <div className="mt-2 flex flex-wrap gap-2">
                    {c.canEdit ? (
                      <Link to={`${here}?editComment=${encodeURIComponent(c.id)}#comments`} className={buttonClass('ghost', 'sm')} preventScrollReset>
                        Edit
                      </Link>
                    ) : null}
                    {c.canDelete ? (
                      <ConfirmStep
                        trigger="Delete"
                        triggerClassName={buttonClass('ghost', 'sm')}
                        title="Delete this comment?"
                        description="The comment will be removed from this pin for everyone. This cannot be undone."
                        confirmLabel="Delete comment"
                        pendingLabel="Deleting..."
                        fields={{ intent: 'deleteComment', commentId: c.id }}
                        action={here}
                        href={`${here}?confirm=deleteComment&comment=${encodeURIComponent(c.id)}#comments`}
                        closeHref={`${here}#comments`}
                        serverOpen={confirmDeleteCommentId === c.id}
                        danger
                      />
                    ) : null}
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
        ) : (
          <p className="text-sm text-slate-500">No comments yet.</p>
        )}
        {signedIn ? (
          <CommentForm pinId={pinId} intent="comment" result={result?.intent === 'comment' ? result.lastResult : undefined} />
        ) : (
          <p className="text-sm text-slate-600">
            <a href={`/api/login?redirectTo=${encodeURIComponent(here)}`} className="font-semibold text-brand-700 hover:underline">
              Sign in
            </a>{' '}
            to react and comment.
          </p>
        )}
      </div>
    </section>
  );
}

function CommentForm({ pinId, intent, commentId, defaultValue, result, cancelHref }: { pinId: string; intent: 'comment' | 'editComment'; commentId?: string; defaultValue?: string; result?: SubmissionResult<string[]>; cancelHref?: string }) {
  const [form, fields] = useForm({
    id: `${intent}-${commentId ?? 'new'}`,
    lastResult: result,
    defaultValue: { content: defaultValue ?? '' },
  });
  return (
    <Form method="post" action={`/pins/${pinId}`} {...getFormProps(form)} className="space-y-2" preventScrollReset>
      <FormErrors errors={form.errors} id={form.errorId} />
      <input type="hidden" name="intent" value={intent} />
      {commentId ? <input type="hidden" name="commentId" value={commentId} /> : null}
      <label htmlFor={fields.content.id} className={intent === 'comment' ? 'label' : 'sr-only'}>
        {intent === 'comment' ? 'Add a comment' : 'Edit your comment'}
      </label>
      <textarea {...getTextareaProps(fields.content)} rows={3} maxLength={COMMENT_MAX} className="input w-full" />
      <FieldError field={fields.content} />
      <div className="flex gap-2">
        <Button size="sm" variant="primary">
          {intent === 'comment' ? 'Post Comment' : 'Save'}
        </Button>
        {cancelHref ? (
          <Link to={cancelHref} className={buttonClass('secondary', 'sm')}>
            Cancel
          </Link>
        ) : null}
      </div>
    </Form>
  );
}
