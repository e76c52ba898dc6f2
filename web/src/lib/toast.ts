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

/** How long after a bid's own outcome the bell's notice of the same outcome is not toasted. */
const TOLD_MS = 10_000;
/** Auctions whose bid outcome this tab is telling: until when (Infinity while the call runs). */
const telling = new Map<string, number>();

/**
 * One outcome, one message: a bid this tab placed is told by its own toast, so the bell's "you
 * have been outbid" notice of that auction, which the socket may deliver before or just after the
 * answer, is not toasted as well (it stays in the bell). Call when the bid is sent; the returned
 * function when it is answered, with whether the answer told an outbid.
 */
export const tellingBidOutcome = (auctionId: string): ((toldOutbid: boolean) => void) => {
  telling.set(auctionId, Infinity);
  return (toldOutbid) => {
    if (toldOutbid) telling.set(auctionId, Date.now() + TOLD_MS);
    else telling.delete(auctionId);
  };
};

/** Whether a bell notice repeats a bid outcome this tab has just told (`tellingBidOutcome`). */
export const toldAlready = (notice: {
  readonly auctionId: string | null;
  readonly message: string;
}): boolean => {
  const until = notice.auctionId === null ? undefined : telling.get(notice.auctionId);
  return (
    until !== undefined && Date.now() <= until && notice.message.startsWith('You have been outbid')
  );
};

/** A settled toast's kind and text, when it is not the plain success. */
export interface ToastOutcome {
  readonly type: 'success' | 'warning' | 'error' | 'info';
  readonly message: string;
}

/**
 * A call with the spec's 'Loading...' toast while it runs, turned into the success message or the
 * failure message (or taken away) when it ends. Resolves to the call's result, or undefined when it failed.
 */
export const withLoadingToast = async <T>(
  run: () => Promise<T>,
  outcome: {
    /** The success message; or, from the result, another kind of toast (one outcome, one toast). */
    success: string | ((result: T) => string | ToastOutcome);
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
  const settle = (type: ToastOutcome['type'], render: string) =>
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
    const told = typeof outcome.success === 'function' ? outcome.success(result) : outcome.success;
    if (typeof told === 'string') settle('success', told);
    else settle(told.type, told.message);
    return result;
  } catch (error) {
    const message = outcome.failure(error);
    if (message === null) toast.dismiss(id);
    else settle('error', message);
    return undefined;
  }
};
