import { beforeEach, describe, expect, it, vi } from 'vitest';
import { ada, apiStandInPerTest, ok, refused } from '../../testing/api-stand-in';
import type * as SessionStore from './store';

/** The browser's local storage, in memory. */
class MemoryStorage {
  private readonly values = new Map<string, string>();
  getItem = (key: string) => this.values.get(key) ?? null;
  setItem = (key: string, value: string) => void this.values.set(key, String(value));
  removeItem = (key: string) => void this.values.delete(key);
}

const api = apiStandInPerTest();
let storage: MemoryStorage;
let page: EventTarget;

/** The session store as a fresh page loads it, with `stored` in local storage under `user`. */
const load = async (stored?: string): Promise<typeof SessionStore.useSession> => {
  if (stored !== undefined) storage.setItem('user', stored);
  vi.resetModules();
  return (await import('./store')).useSession;
};
/** What another tab's change of local storage tells this one. */
const storageEvent = (key: string) => Object.assign(new Event('storage'), { key });

beforeEach(() => {
  storage = new MemoryStorage();
  page = new EventTarget();
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal('window', page);
});

describe('the session store', () => {
  it('starts with the user kept in local storage', async () => {
    const useSession = await load(JSON.stringify(ada));
    expect(useSession.getState().user).toEqual(ada);
    expect(useSession.getState().confirmed).toBe(false);
  });

  it.each([
    ['nothing', undefined],
    ['text that is not JSON', '{"_id":'],
    ['JSON that is not a user', JSON.stringify({ ...ada, role: 'Owner' })],
  ])('starts signed out with %s stored', async (_name, stored) => {
    const useSession = await load(stored);
    expect(useSession.getState().user).toBeNull();
  });

  it('signedIn keeps the user; signedOut forgets them and says where the exit goes', async () => {
    const useSession = await load();
    useSession.getState().setLoading(true);
    useSession.getState().signedIn(ada);
    expect(useSession.getState()).toMatchObject({ user: ada, loading: false, exitTo: null });
    expect(JSON.parse(storage.getItem('user') ?? 'null')).toEqual(ada);

    useSession.getState().signedOut('/');
    expect(useSession.getState()).toMatchObject({ user: null, loading: false, exitTo: '/' });
    expect(storage.getItem('user')).toBeNull();
    useSession.getState().signedIn(ada);
    expect(useSession.getState().exitTo).toBeNull();
  });

  it('confirm takes the user the server has (a name changed elsewhere)', async () => {
    const useSession = await load(JSON.stringify(ada));
    const renamed = { ...ada, firstName: 'Augusta', name: 'Augusta Lovelace' };
    api().answer = () => ok({ user: renamed });
    await useSession.getState().confirm();
    expect(api().requests.map(({ method, path }) => `${method} ${path}`)).toEqual(['GET /auth/me']);
    expect(useSession.getState()).toMatchObject({ user: renamed, confirmed: true });
    expect(JSON.parse(storage.getItem('user') ?? 'null')).toEqual(renamed);
  });

  it('confirm signs out when the session has ended (401)', async () => {
    const useSession = await load(JSON.stringify(ada));
    api().answer = () => refused(401, 'Please log in to continue');
    await useSession.getState().confirm();
    expect(useSession.getState()).toMatchObject({ user: null, confirmed: true, exitTo: null });
    expect(storage.getItem('user')).toBeNull();
  });

  it('confirm keeps the user through an outage', async () => {
    const useSession = await load(JSON.stringify(ada));
    api().answer = () => refused(503, 'The service is busy, please try again');
    await useSession.getState().confirm();
    expect(useSession.getState()).toMatchObject({ user: ada, confirmed: true });
    expect(storage.getItem('user')).not.toBeNull();
  });

  it('follows another tab logging in and out, and nothing else it stores', async () => {
    const useSession = await load();
    storage.setItem('user', JSON.stringify(ada));
    page.dispatchEvent(storageEvent('theme'));
    expect(useSession.getState().user).toBeNull();
    page.dispatchEvent(storageEvent('user'));
    expect(useSession.getState().user).toEqual(ada);
    storage.removeItem('user');
    page.dispatchEvent(storageEvent('user'));
    expect(useSession.getState().user).toBeNull();
  });
});
