/**
 * A list that could not be fetched (the server unreachable or failing): it says so, with Retry,
 * so that a failure never reads as "nothing found".
 */
export const ListFailed = ({ what, onRetry }: { what: string; onRetry: () => void }) => (
  <div className="empty card list-failed" role="alert">
    <h2>Could not load {what}.</h2>
    <p>The server could not be reached. Check your connection and try again.</p>
    <button type="button" className="btn btn-primary" onClick={onRetry}>
      Retry
    </button>
  </div>
);
