import { Link } from 'react-router';
import { Avatar } from '../../../components/avatar';
import { formatDate, formatDateTime, formatMoney } from '../../../lib/format';
import type { Profile } from '../api';

const StatCard = ({ label, value }: { label: string; value: string | number }) => (
  <div className="stat-card">
    <p className="stat-label">{label}</p>
    <p className="stat-value">{value}</p>
  </div>
);

export const Overview = ({ profile, onDelete }: { profile: Profile; onDelete: () => void }) => {
  const { user, statistics } = profile;
  const name = `${user.firstName} ${user.lastName}`.trim() || user.name;
  return (
    <div className="stack">
      <div className="card profile-card">
        <Avatar name={name} imageUrl={user.image?.url} size={96} className="profile-avatar" />
        <div className="profile-identity">
          <h2>{name}</h2>
          <p className="profile-email">{user.email}</p>
          <div className="row">
            <span className="badge badge-brand">{user.role}</span>
            {user.createdAt ? (
              <span className="muted profile-since">Member since {formatDate(user.createdAt)}</span>
            ) : null}
          </div>
        </div>
      </div>
      <div className="grid-4">
        <StatCard label="Total Auctions" value={statistics.totalAuctions} />
        <StatCard label="Active Auctions" value={statistics.activeAuctions} />
        <StatCard label="Bids Placed" value={statistics.totalBids} />
        <StatCard label="Items Won" value={statistics.totalWinnings} />
      </div>
      <div className="card danger-zone">
        <div>
          <h2>Delete Account</h2>
          <p className="muted">
            Your live auctions are cancelled, your bids on live auctions are withdrawn and your
            personal data is erased.
          </p>
        </div>
        <button type="button" className="btn btn-danger" onClick={onDelete}>
          Delete Account
        </button>
      </div>
    </div>
  );
};

export const RecentActivityList = ({ profile }: { profile: Profile }) => {
  const entries = profile.recentActivity.slice(0, 5);
  if (entries.length === 0)
    return (
      <div className="empty card">
        <h2>No Recent Activity</h2>
        <p>Your latest bids will show up here.</p>
      </div>
    );
  return (
    <ul className="card activity-list">
      {entries.map((entry) => (
        <li key={entry._id}>
          <div className="activity-main">
            <Link to={`/auction/${entry.product._id}`} className="activity-title">
              {entry.product.title}
            </Link>
            <time className="muted" dateTime={entry.createdAt}>
              {formatDateTime(entry.createdAt)}
            </time>
          </div>
          <span className="activity-amount">{formatMoney(entry.amount)}</span>
        </li>
      ))}
    </ul>
  );
};

export const Statistics = ({ profile }: { profile: Profile }) => {
  const s = profile.statistics;
  return (
    <div className="grid-4">
      <StatCard label="Total Auctions" value={s.totalAuctions} />
      <StatCard label="Active Auctions" value={s.activeAuctions} />
      <StatCard label="Completed Auctions" value={s.completedAuctions} />
      <StatCard label="Total Bids" value={s.totalBids} />
      <StatCard label="Total Winnings" value={s.totalWinnings} />
      <StatCard label="Winnings Value" value={formatMoney(s.totalWinningsValue)} />
      <StatCard label="Watch List" value={s.watchListCount} />
    </div>
  );
};
