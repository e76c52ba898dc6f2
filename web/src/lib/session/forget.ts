/** How each slice that holds what the signed-in user saw forgets it, in the order they registered. */
const forgetters: (() => void)[] = [];

/**
 * A slice that holds what the signed-in user saw (the profile, the notifications) registers here
 * how to forget it, so the session needs to know no slice, and a slice needs nothing of the session.
 */
export const onForgetUser = (forget: () => void): void => {
  forgetters.push(forget);
};

/** Runs every registered forgetting (the session's `forgetUser` calls it). */
export const forgetEverySlice = (): void => {
  for (const forget of forgetters) forget();
};
