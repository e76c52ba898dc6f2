import type { AuditEvent, AuditState, AuditVerification } from '@auction/contracts';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { auditApi } from './api';

const failureText = (error: unknown): string => {
  if (error instanceof ApiError && error.status === 403)
    return 'Only auditors, admins and the seller may see this timeline.';
  if (error instanceof ApiError && error.status === 404) return 'No such auction.';
  return error instanceof ApiError && error.serverMessage
    ? error.serverMessage
    : 'Cannot load the timeline.';
};

/**
 * An auction's events, the step chosen (the last at first), the state folded at that step (each
 * fetched once), and the verification once asked for; `failure` ends the page.
 */
export const useAuditTimeline = (auctionId: string) => {
  const [events, setEvents] = useState<AuditEvent[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [step, setStep] = useState(0);
  const [state, setState] = useState<AuditState | null>(null);
  const [verification, setVerification] = useState<AuditVerification | null>(null);
  const [verifying, setVerifying] = useState(false);
  const states = useRef(new Map<number, AuditState>());

  useEffect(() => {
    states.current = new Map();
    setEvents(null);
    setFailure(null);
    setVerification(null);
    auditApi.events(auctionId).then(
      ({ events: loaded }) => {
        setEvents(loaded);
        setStep(Math.max(0, loaded.length - 1));
      },
      (error: unknown) => setFailure(failureText(error)),
    );
  }, [auctionId]);

  useEffect(() => {
    if (!events || events.length === 0) return;
    const known = states.current.get(step);
    if (known) return setState(known);
    let current = true;
    auditApi.stateAt(auctionId, step).then(
      ({ state: folded }) => {
        states.current.set(step, folded);
        if (current) setState(folded);
      },
      (error: unknown) => current && setFailure(failureText(error)),
    );
    return () => {
      current = false;
    };
  }, [auctionId, events, step]);

  const verify = async () => {
    setVerifying(true);
    try {
      setVerification((await auditApi.verify(auctionId)).verification);
    } catch (error) {
      setFailure(failureText(error));
    } finally {
      setVerifying(false);
    }
  };

  return { events, failure, step, setStep, state, verification, verifying, verify };
};
