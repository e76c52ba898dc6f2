import { notify } from '../toast';
import { sessionApi } from './api';
import { useSession } from './store';

/** How each slice that holds what the signed-in user saw forgets it, in the order they registered. */
const forgetters: (() => void)[] = [];

/**
 * A slice that holds what the signed-in user saw (the profile, the notifications) registers here
 * how to forget it, so the session needs to know no slice.
 */
export const onForgetUser = (forget: () => void): void => {
  forgetters.push(forget);
};

/** Forgets everything the signed-in user saw (logout and account deletion), then goes to `exitTo`. */
export const forgetUser = (exitTo?: string): void => {
  useSession.getState().signedOut(exitTo);
  for (const forget of forgetters) forget();
};

/** Spec §4: request, clear the state and the stored user, 'Logged Out', then home. */
export const logOut = async (navigate: (to: string) => void): Promise<void> => {
  await sessionApi.logout().catch(() => undefined);
  forgetUser('/');
  notify.success('Logged Out');
  navigate('/');
};
