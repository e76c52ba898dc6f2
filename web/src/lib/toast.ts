import { type Id, toast } from 'react-toastify';

/** Every toast the app raises goes through here (spec §8: top-right, 5000 ms, the spec's texts). */
export const notify = {
  success: (message: string) => toast.success(message),
  error: (message: string) => toast.error(message),
  info: (message: string) => toast.info(message),
};

/**
 * A call with the spec's 'Loading...' toast while it runs, turned into the success message or the
 * failure message when it ends. Resolves to the call's result, or undefined when it failed.
 */
export const withLoadingToast = async <T>(
  run: () => Promise<T>,
  outcome: { success: string | ((result: T) => string); failure: (error: unknown) => string },
): Promise<T | undefined> => {
  const id: Id = toast.loading('Loading...');
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
    settle('error', outcome.failure(error));
    return undefined;
  }
};
