import { useEffect, useState } from 'react';

/** The current time, re-read every `everyMs` (the countdown ticks every second, spec §9). */
export const useNow = (everyMs = 1000): number => {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
};
