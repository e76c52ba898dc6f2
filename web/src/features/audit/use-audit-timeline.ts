import type { AuditEvent, AuditState, AuditTimeline, AuditVerification } from '@auction/contracts';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../lib/api-client';
import { auditApi } from './api';
import type { Users } from './audit-words';

const failureText = (error: unknown): string => {
  if (error instanceof ApiError && error.status === 403)
    return 'Only auditors, admins and the seller may see this timeline.';
  if (error instanceof ApiError && error.status === 404) return 'No such auction.';
  return error instanceof ApiError && error.serverMessage
    ? error.serverMessage
    : 'Cannot load the timeline.';
};

/**
 * An auction's events and timeline (actors, changes), the step chosen (the last at first), the
 * state folded at that step (each fetched once), a jump to a moment through the API's `?at=`, and
 * the verification once asked for; `failure` ends the page.
 */
export const useAuditTimeline = (auctionId: string) => {
  const [events, setEvents] = useState<AuditEvent[] | null>(null);
  const [timeline, setTimeline] = useState<AuditTimeline | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [step, setStep] = useState(0);
  const [state, setState] = useState<AuditState | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [verification, setVerification] = useState<AuditVerification | null>(null);
  const [verifying, setVerifying] = useState(false);
  const states = useRef(new Map<number, AuditState>());

  useEffect(() => {
    states.current = new Map();
    setEvents(null);
    setTimeline(null);
    setFailure(null);
    setVerification(null);
    Promise.all([auditApi.events(auctionId), auditApi.timeline(auctionId)]).then(
      ([{ events: loaded }, { timeline: steps }]) => {
        setEvents(loaded);
        setTimeline(steps);
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

  /** Asks the API for the board at a moment and steps to the event it reached. */
  const goToTime = async (iso: string) => {
    try {
      const { state: folded } = await auditApi.stateAtTime(auctionId, iso);
      if (folded.revision === null) {
        setNotice('The auction did not exist yet at that moment: showing its first event.');
        setStep(0);
        return;
      }
      states.current.set(folded.revision, folded);
      setNotice(null);
      setStep(folded.revision);
    } catch (error) {
      setNotice(failureText(error));
    }
  };

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

  const users: Users = useMemo(
    () => new Map((timeline?.users ?? []).map((user) => [user._id, user])),
    [timeline],
  );

  const choose = (next: number) => {
    setNotice(null);
    setStep(next);
  };

  return {
    events,
    timeline,
    users,
    failure,
    step,
    setStep: choose,
    state,
    notice,
    goToTime,
    verification,
    verifying,
    verify,
  };
};
