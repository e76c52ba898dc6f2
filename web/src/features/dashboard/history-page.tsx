import { ListFailed } from '../../components/list-failed';
import { HistoryItem } from './history/history-item';
import { HistoryFilters, HistorySummary } from './history/history-parts';
import { useHistory } from './history/use-history';
import './dashboard.css';

/** Everything the user did, filterable by kind, with counts of each (spec §2 History). */
export const HistoryPage = () => {
  const {
    all,
    entries,
    filter,
    choose,
    loading,
    listLoading,
    failed,
    retry,
    listFailed,
    retryList,
  } = useHistory();
  return (
    <section className="dashboard-page">
      <header className="page-header">
        <div>
          <h1>History</h1>
          <p className="muted">Your auctions, bids and wins over time.</p>
        </div>
      </header>
      {loading ? (
        <p className="dashboard-loading" role="status">
          Loading your history...
        </p>
      ) : failed ? (
        <ListFailed what="your history" onRetry={retry} />
      ) : (
        <>
          <HistorySummary all={all} />
          <HistoryFilters filter={filter} choose={choose} />
          <div aria-busy={listLoading} aria-live="polite">
            {listFailed && !listLoading ? (
              <ListFailed what="your history" onRetry={retryList} />
            ) : entries.length === 0 && !listLoading ? (
              <div className="empty card">
                <h2>No History Yet</h2>
                <p>Start participating in auctions to see your history here</p>
              </div>
            ) : (
              <ul className={`history-list ${listLoading ? 'is-loading' : ''}`}>
                {entries.map((entry) => (
                  <HistoryItem key={`${entry.type}-${entry.id}`} entry={entry} />
                ))}
              </ul>
            )}
          </div>
        </>
      )}
    </section>
  );
};
