import { type Id, type TypeOptions, toast } from 'react-toastify';

/**
 * One toast per cause: a message already on screen is shown again in place (its timer restarted),
 * never stacked, so a form submitted five times with the same mistake shows it once.
 */
const once = (type: TypeOptions, message: string): Id => {
  const toastId = `${type}:${message}`;
  if (toast.isActive(toastId)) toast.update(toastId, { render: message, type, autoClose: 5000 });
  else toast(message, { type, toastId });
  return toastId;
};

/** Every toast the app raises goes through here (spec §8: top-right, 5000 ms, the spec's texts). */
export const notify = {
  success: (message: string) => once('success', message),
  error: (message: string) => once('error', message),
  info: (message: string) => once('info', message),
};

/**
 * A call with the spec's 'Loading...' toast while it runs, turned into the success message or the
 * failure message (or taken away) when it ends. Resolves to the call's result, or undefined when it failed.
 */
export const withLoadingToast = async <T>(
  run: () => Promise<T>,
  outcome: {
    success: string | ((result: T) => string);
    /** The failure's message; null: no toast (the page shows the failure itself). */
    failure: (error: unknown) => string | null;
    /**
     * One toast for every call of the same action: a new attempt takes over the last one's toast
     * instead of adding another (a form submitted again after a failure).
     */
    key?: string;
  },
): Promise<T | undefined> => {
  const key = outcome.key;
  let id: Id;
  if (key !== undefined && toast.isActive(key)) {
    id = key;
    toast.update(id, {
      render: 'Loading...',
      type: 'default',
      isLoading: true,
      autoClose: false,
      closeOnClick: false,
      closeButton: false,
    });
  } else {
    id = toast.loading('Loading...', key === undefined ? {} : { toastId: key });
  }
  const settle = (type: 'success' | 'error', render: string) =>
    toast.update(id, {
      render,
      type,
      isLoading: false,
      autoClose: 5000,
      closeOnClick: true,
      closeButton: true,
    });
  try {
    const result = await run();
    settle(
      'success',
      typeof outcome.success === 'function' ? outcome.success(result) : outcome.success,
    );
    return result;
  } catch (error) {
    const message = outcome.failure(error);
    if (message === null) toast.dismiss(id);
    else settle('error', message);
    return undefined;
  }
};
