import type { HistoryEntry } from '@auction/contracts';
import type { HistoryFilter } from '../api';

const FILTERS: { value: HistoryFilter; label: string }[] = [
  { value: 'all', label: 'All Activities' },
  { value: 'created', label: 'Created' },
  { value: 'won', label: 'Won' },
  { value: 'bid', label: 'Bid' },
];

const count = (entries: HistoryEntry[], type: HistoryEntry['type']) =>
  entries.filter((entry) => entry.type === type).length;

/** The counts of each kind over the latest entries. */
export const HistorySummary = ({ all }: { all: HistoryEntry[] }) => {
  const summary = [
    { label: 'Total Activities', value: all.length },
    { label: 'Items Won', value: count(all, 'won') },
    { label: 'Auctions Created', value: count(all, 'created') },
    { label: 'Bids Placed', value: count(all, 'bid') },
  ];
  return (
    <div className="grid-4 summary">
      {summary.map((card) => (
        <div key={card.label} className="stat-card">
          <p className="stat-label">{card.label}</p>
          <p className="stat-value">{card.value}</p>
        </div>
      ))}
    </div>
  );
};

/** The filter buttons, the chosen one pressed. */
export const HistoryFilters = ({
  filter,
  choose,
}: {
  filter: HistoryFilter;
  choose: (next: HistoryFilter) => void;
}) => (
  <div className="filters" role="group" aria-label="Filter history">
    {FILTERS.map((option) => (
      <button
        key={option.value}
        type="button"
        aria-pressed={filter === option.value}
        onClick={() => choose(option.value)}
      >
        {option.label}
      </button>
    ))}
  </div>
);
