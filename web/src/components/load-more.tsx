/**
 * The end of a paged list: a sentinel that loads the next page as it scrolls into view, and a
 * button that does the same for those who do not scroll (keyboard, a screen reader).
 */
export const LoadMore = ({
  hasMore,
  loading,
  onMore,
  sentinel,
}: {
  hasMore: boolean;
  loading: boolean;
  onMore: () => void;
  sentinel: (element: Element | null) => void;
}) =>
  hasMore ? (
    <div className="load-more" ref={sentinel}>
      <button type="button" className="btn btn-ghost" disabled={loading} onClick={onMore}>
        {loading ? 'Loading…' : 'Load more'}
      </button>
    </div>
  ) : null;
