import { useEffect } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router';
import { Avatar } from '../../components/avatar';
import { Spinner } from '../../components/status';
import { useSession } from '../../lib/session/store';
import { useProfile } from '../../lib/profile-store';
import { useRefetchOnReconnect } from '../../lib/use-socket-link';

const entries = [
  { to: 'my-profile', label: 'My Profile' },
  { to: 'my-auctions', label: 'My Auctions' },
  { to: 'create-auction', label: 'Create Auction' },
  { to: 'auctions-won', label: 'Auctions Won' },
  { to: 'history', label: 'History' },
  { to: 'watchlist', label: 'Watchlist' },
  { to: 'create-category', label: 'Create Category' },
];

/** Sidebar with the user, quick stats and the dashboard entries; the page beside it (spec §2). */
export const DashboardLayout = () => {
  const user = useSession((s) => s.user);
  const { profile, loading, load } = useProfile();
  const { pathname } = useLocation();
  // Each dashboard page shows the profile as it is now: an auction may have closed or sold since.
  useEffect(() => {
    void load();
  }, [load, pathname]);
  // Back from a loss: the quick stats may have changed meanwhile.
  useRefetchOnReconnect(() => void load());

  if (loading && !profile) return <Spinner label="Loading your dashboard" />;
  const name = profile?.user.name ?? user?.name ?? '';
  const imageUrl = profile?.user.image?.url ?? user?.image?.url ?? null;
  return (
    <div className="dashboard">
      <aside className="sidebar" aria-label="Dashboard">
        <div className="sidebar-user">
          <Avatar name={name} imageUrl={imageUrl} size={64} />
          <div>
            <p className="sidebar-name">{profile?.user.firstName ?? name}</p>
            <p className="sidebar-email">{profile?.user.email ?? user?.email}</p>
          </div>
        </div>
        <dl className="quick-stats">
          <div>
            <dt>Active Auctions</dt>
            {/* The live ones, as the profile's statistics count them (not every product). */}
            <dd>{profile?.statistics.activeAuctions ?? 0}</dd>
          </div>
          <div>
            <dt>Won Items</dt>
            <dd>{profile?.user.winnings.length ?? 0}</dd>
          </div>
        </dl>
        <nav className="sidebar-nav">
          {entries.map((entry) => (
            <NavLink key={entry.to} to={entry.to}>
              {entry.label}
            </NavLink>
          ))}
        </nav>
      </aside>
      <div className="dashboard-content">
        <Outlet />
      </div>
    </div>
  );
};
