import { useEffect, useRef, useSyncExternalStore } from 'react';
import { type SocketLink, onSocketLinkChange, onSocketReconnect, socketLink } from './socket';

/** The tab's link to the server as it stands, re-rendering when it changes. */
export const useSocketLink = (): SocketLink =>
  useSyncExternalStore(onSocketLinkChange, socketLink, socketLink);

/**
 * Runs `refetch` each time the socket connects again after a loss: what the page shows may have
 * changed while it heard nothing. The latest `refetch` is called; the subscription stays.
 */
export const useRefetchOnReconnect = (refetch: () => void): void => {
  const latest = useRef(refetch);
  latest.current = refetch;
  useEffect(() => onSocketReconnect(() => latest.current()), []);
};
