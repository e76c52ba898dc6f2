import { type KeyboardEvent, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Avatar } from '../../components/avatar';
import { Confirm } from '../../components/modal';
import { formatDate, formatDateTime, formatMoney } from '../../lib/format';
import { withLoadingToast } from '../../lib/toast';
import { sessionApi } from '../../lib/session/api';
import { forgetUser } from '../../lib/session/log-out';
import type { Profile } from './api';
import { useProfile } from '../../lib/profile-store';
import './dashboard.css';

const TABS = ['Overview', 'Recent Activity', 'Statistics'] as const;
type Tab = (typeof TABS)[number];
const tabKey = (tab: Tab) => tab.toLowerCase().replace(' ', '-');

const StatCard = ({ label, value }: { label: string; value: string | number }) => (
  <div className="stat-card">
    <p className="stat-label">{label}</p>
    <p className="stat-value">{value}</p>
  </div>
);

const Overview = ({ profile, onDelete }: { profile: Profile; onDelete: () => void }) => {
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

const RecentActivityList = ({ profile }: { profile: Profile }) => {
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

const Statistics = ({ profile }: { profile: Profile }) => {
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

/** The profile with Overview, Recent Activity and Statistics tabs, and account deletion. */
export const MyProfilePage = () => {
  const navigate = useNavigate();
  const { profile, loading } = useProfile();
  const [tab, setTab] = useState<Tab>('Overview');
  const [confirming, setConfirming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const tabRefs = useRef<(HTMLButtonElement | null)[]>([]);

  const onTabKey = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = TABS.indexOf(tab);
    const last = TABS.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index === 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    setTab(TABS[next] ?? 'Overview');
    tabRefs.current[next]?.focus();
  };

  const deleteAccount = async () => {
    setDeleting(true);
    const result = await withLoadingToast(() => sessionApi.deleteAccount(), {
      success: 'Account Removed',
      failure: () => 'Something went wrong',
    });
    setDeleting(false);
    setConfirming(false);
    if (!result) return;
    forgetUser('/');
    void navigate('/', { replace: true });
  };

  if (loading && !profile)
    return (
      <p className="dashboard-loading" role="status">
        Loading your profile...
      </p>
    );
  if (!profile)
    return (
      <div className="empty card">
        <h1>Profile Not Found</h1>
        <p>Unable to load your profile data</p>
      </div>
    );

  return (
    <section className="dashboard-page">
      <header className="page-header">
        <div>
          <h1>My Profile</h1>
          <p className="muted">Your account, activity and numbers at a glance.</p>
        </div>
      </header>
      <div className="tabs" role="tablist" aria-label="Profile sections" onKeyDown={onTabKey}>
        {TABS.map((name, index) => (
          <button
            key={name}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`tab-${tabKey(name)}`}
            aria-selected={tab === name}
            aria-controls={`panel-${tabKey(name)}`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
          >
            {name}
          </button>
        ))}
      </div>
      <div
        role="tabpanel"
        id={`panel-${tabKey(tab)}`}
        aria-labelledby={`tab-${tabKey(tab)}`}
        tabIndex={0}
        className="tab-panel"
      >
        {tab === 'Overview' ? (
          <Overview profile={profile} onDelete={() => setConfirming(true)} />
        ) : tab === 'Recent Activity' ? (
          <RecentActivityList profile={profile} />
        ) : (
          <Statistics profile={profile} />
        )}
      </div>
      {confirming ? (
        <Confirm
          title="Delete Account"
          question="Are you sure you want to delete your account? This action is permanent."
          busy={deleting}
          onAnswer={(yes) => (yes ? void deleteAccount() : setConfirming(false))}
        />
      ) : null}
    </section>
  );
};
