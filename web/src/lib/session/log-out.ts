import { notify } from '../toast';
import { sessionApi } from './api';
import { forgetEverySlice } from './forget';
import { useSession } from './store';

/** Forgets everything the signed-in user saw (logout and account deletion), then goes to `exitTo`. */
export const forgetUser = (exitTo?: string): void => {
  useSession.getState().signedOut(exitTo);
  forgetEverySlice();
};

/** Spec §4: request, clear the state and the stored user, 'Logged Out', then home. */
export const logOut = async (navigate: (to: string) => void): Promise<void> => {
  await sessionApi.logout().catch(() => undefined);
  forgetUser('/');
  notify.success('Logged Out');
  navigate('/');
};
