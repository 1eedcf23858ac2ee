/**
 * Browse's URL read into its list state, on the server. The browse route calls this rather than
 * `readListQuery(url, browseQuerySchema)` itself: a route module's imports are also its browser
 * bundle's, and the schema would bring zod to the browse page, which needs none of it.
 */
import { browseQuerySchema } from '~/forms/pins';
import { readListQuery } from '~/utils/list-query';

export type BrowseQuery = ReturnType<typeof readBrowseQuery>;

export function readBrowseQuery(source: URL | URLSearchParams) {
  return readListQuery(source, browseQuerySchema);
}
