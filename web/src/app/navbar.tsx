import { useEffect, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate } from 'react-router';
import { NotificationBell } from '../features/notifications/notification-bell';
import { logOut } from '../lib/session/log-out';
import { useSession } from '../lib/session/store';

/** Brand, Auctions, About; then Login/Sign Up, or the bell, Dashboard and Log Out (spec §2). */
export const Navbar = () => {
  const user = useSession((s) => s.user);
  const navigate = useNavigate();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  useEffect(() => setMenuOpen(false), [location.pathname]);

  return (
    <header className="navbar">
      <nav className="navbar-inner" aria-label="Main">
        <Link to="/" className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>{' '}
          BidHub
        </Link>
        <div className="nav-links">
          <NavLink to="/auctions">Auctions</NavLink>
          <NavLink to="/about">About</NavLink>
        </div>
        <div className="nav-actions">
          {user ? (
            <>
              <NotificationBell />
              <Link className="btn btn-primary btn-sm" to="/dashboard/my-profile">
                Dashboard
              </Link>
              <button
                type="button"
                className="btn btn-danger btn-sm"
                onClick={() => void logOut((to) => void navigate(to))}
              >
                Log Out
              </button>
            </>
          ) : (
            <>
              <button
                type="button"
                className="menu-toggle"
                aria-expanded={menuOpen}
                aria-controls="guest-menu"
                aria-label="Menu"
                onClick={() => setMenuOpen((open) => !open)}
              >
                <span aria-hidden="true">☰</span>
              </button>
              <div id="guest-menu" className={`guest-menu ${menuOpen ? 'open' : ''}`}>
                <Link className="btn btn-ghost btn-sm" to="/login">
                  Login
                </Link>
                <Link className="btn btn-primary btn-sm" to="/signup">
                  Sign Up
                </Link>
              </div>
            </>
          )}
        </div>
      </nav>
    </header>
  );
};
