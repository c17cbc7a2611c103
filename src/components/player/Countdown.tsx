/** The countdown of an upcoming event; at zero it says the stream starts by itself (the store re-checks). */
import { useEffect, useState, type ReactNode } from 'react';
import { env } from '../../lib/env.js';
import { formatEventTime } from '../../lib/time.js';
import { useElement } from '../ui/shell.js';
// The player's English texts (`player.*`) travel with its code.
import '../../i18n/player.js';

/** Counts down to `startsAt` (Unix seconds), once a second. */
export function Countdown(props: { startsAt: number | undefined }): ReactNode {
  const { t, lang } = useElement();
  const [now, setNow] = useState(() => env().now());
  useEffect(() => {
    const id = setInterval(() => setNow(env().now()), 1000);
    return () => clearInterval(id);
  }, []);
  const left = props.startsAt ? Math.max(0, Math.round(props.startsAt - now / 1000)) : 0;
  const when = props.startsAt ? formatEventTime(props.startsAt, undefined, lang) : undefined;
  const days = Math.floor(left / 86400);
  const clock = [Math.floor((left % 86400) / 3600), Math.floor((left % 3600) / 60), left % 60]
    .map((n) => String(n).padStart(2, '0'))
    .join(':');
  return (
    <div className="panel" part="message countdown">
      {left > 0 ? (
        <>
          <p>{t('player.upcoming.title')}</p>
          <p className="clock" role="timer" aria-live="off" part="countdown-clock">
            {days > 0 ? `${t('player.upcoming.days', { count: days })} ` : ''}
            {clock}
          </p>
          {when ? <p className="detail">{t('player.upcoming.at', { date: when.date, time: when.time })}</p> : null}
        </>
      ) : (
        <p role="status">{t('player.upcoming.soon')}</p>
      )}
    </div>
  );
}
