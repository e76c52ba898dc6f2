import { create } from 'zustand';
import { onUnauthorized } from '../api-client';
import { renewSocketSession } from '../socket';
import { SessionUser } from '@auction/contracts';
import { sessionApi } from './api';

const STORAGE_KEY = 'user';

const stored = (): SessionUser | null => {
  try {
    const raw = localStorage.getItem(STORAGE_KEY);
    if (!raw) return null;
    const parsed = SessionUser.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
};

const persist = (user: SessionUser | null) => {
  if (user) localStorage.setItem(STORAGE_KEY, JSON.stringify(user));
  else localStorage.removeItem(STORAGE_KEY);
};

interface SessionState {
  user: SessionUser | null;
  /** A login or signup call is running (spec §4: the global loading flag). */
  loading: boolean;
  /** The server has said whether this browser has a session (after a Google redirect it may, with nothing stored). */
  confirmed: boolean;
  setLoading: (loading: boolean) => void;
  /** Where a deliberate sign-out is going (home), so the protected-route guard follows it, not /login. */
  exitTo: string | null;
  signedIn: (user: SessionUser) => void;
  signedOut: (exitTo?: string) => void;
  /** Confirms the stored user with the server; clears it when the session is gone. */
  confirm: () => Promise<void>;
}

/** The session slice: the user the server returned, kept in local storage under `user`. */
export const useSession = create<SessionState>()((set) => ({
  user: stored(),
  loading: false,
  confirmed: false,
  exitTo: null,
  setLoading: (loading) => set({ loading }),
  signedIn: (user) => {
    persist(user);
    set({ user, loading: false, exitTo: null });
    renewSocketSession();
  },
  signedOut: (exitTo) => {
    persist(null);
    set({ user: null, loading: false, exitTo: exitTo ?? null });
    renewSocketSession();
  },
  confirm: async () => {
    try {
      const { user } = await sessionApi.me();
      persist(user);
      set({ user, confirmed: true });
    } catch {
      // A 401 has already signed the user out (onUnauthorized); an outage keeps them.
      set({ confirmed: true });
    }
  },
}));

onUnauthorized(() => {
  if (useSession.getState().user) useSession.getState().signedOut();
});

// Another tab logged in or out.
window.addEventListener('storage', (event) => {
  if (event.key === STORAGE_KEY) useSession.setState({ user: stored() });
});
