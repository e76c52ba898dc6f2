import { Navigate, Outlet, useLocation } from 'react-router';
import { Spinner } from '../components/status';
import { useSession } from '../lib/session/store';
import { returnPath } from './return-path';

/** Pages only for a logged-out visitor: a logged-in user goes to the profile (or back to the auction they were bidding on). */
export const GuestOnly = () => {
  const user = useSession((s) => s.user);
  const location = useLocation();
  return user ? <Navigate to={returnPath(location.state)} replace /> : <Outlet />;
};

/** Pages that need a login: a visitor goes to /login, and comes back after. */
export const Protected = () => {
  const user = useSession((s) => s.user);
  const confirmed = useSession((s) => s.confirmed);
  const exitTo = useSession((s) => s.exitTo);
  const location = useLocation();
  if (user) return <Outlet />;
  if (exitTo) return <Navigate to={exitTo} replace />;
  if (!confirmed) return <Spinner label="Checking your session" />;
  return <Navigate to="/login" replace state={{ from: location.pathname }} />;
};
