import type { ProfileView } from '@auction/contracts';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notify } from './toast';
import { ada, apiStandInPerTest, ok, refused } from '../testing/api-stand-in';
import { useProfile } from './profile-store';

const AT = ada.createdAt;
const profile: ProfileView = {
  user: { ...ada, products: [], winnings: [] },
  statistics: {
    totalAuctions: 2,
    totalWinnings: 1,
    totalBids: 7,
    totalWinningsValue: 350.5,
    watchListCount: 3,
    activeAuctions: 1,
    completedAuctions: 1,
  },
  recentActivity: [
    { _id: 'b1', product: { _id: 'a1', title: 'A lamp' }, amount: 120, createdAt: AT },
  ],
};

const api = apiStandInPerTest();
const state = () => useProfile.getState();

beforeEach(() => {
  state().clear();
  vi.spyOn(notify, 'error');
});

describe('the profile store', () => {
  it('load is loading while the profile is on its way, then holds it', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    api().answer = async () => {
      await held;
      return ok({ data: profile });
    };
    const loading = state().load();
    expect(state().loading).toBe(true);
    release();
    await loading;
    expect(api().requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'GET /user/profile',
    ]);
    expect(state()).toMatchObject({ profile, loading: false });
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('load that fails stops loading, keeps what it had and says so', async () => {
    api().answer = () => ok({ data: profile });
    await state().load();
    api().answer = () => refused(500, 'Something went wrong');
    await state().load();
    expect(state()).toMatchObject({ profile, loading: false });
    expect(notify.error).toHaveBeenCalledWith('Cannot fetch user profile');
  });

  it('an answer that is not a profile is a failure, not a profile', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    api().answer = () => ok({ data: { ...profile, statistics: undefined } });
    await state().load();
    expect(logged).toHaveBeenCalledWith(
      'Unexpected response from /user/profile',
      expect.anything(),
    );
    expect(state()).toMatchObject({ profile: null, loading: false });
    expect(notify.error).toHaveBeenCalledWith('Cannot fetch user profile');
  });
});
