/**
 * `<channel-schedule structured-data>` in the view: the JSON-LD's builder (./structured-data.ts) is fetched only by a
 * schedule that has the attribute, at the first idle moment after it shows events, so a schedule without it never
 * loads that code and one with it does not wait for it. The Trusted Types setter comes with it (no page needs it
 * before its first content).
 */
import { useEffect, useState } from 'react';
import type { Event } from '../../api/channel-schemas.js';
import { env } from '../../lib/env.js';
import type { StructuredDataContext, setScriptText } from './structured-data.js';

/**
 * Keeps one `<script type="application/ld+json">` in the host document's head with the events shown, while the
 * schedule has `structured-data`; removed when the element goes or the attribute does. A builder that cannot be
 * fetched writes nothing (the schedule itself is not affected).
 */
export function useStructuredData(
  enabled: boolean,
  events: readonly Event[] | undefined,
  { watchUrl, base, currency, channelName }: StructuredDataContext,
) {
  /** The JSON-LD to write, and the setter that writes it (fetched with the builder). */
  const [json, setJson] = useState<{ text: string; write: typeof setScriptText }>();
  const wanted = enabled && Boolean(events?.length);
  useEffect(() => {
    if (!wanted || !events) return setJson(undefined);
    let live = true;
    // After the events have been painted: search engines wait for it, viewers should not.
    const cancel = env().whenIdle(() => {
      import('./structured-data.js').then(
        ({ eventsGraph, scriptJson, setScriptText }) => {
          if (live)
            setJson({
              text: scriptJson(eventsGraph(events, { watchUrl, base, currency, channelName })),
              write: setScriptText,
            });
        },
        () => undefined,
      );
    }, 1_000);
    return () => {
      live = false;
      cancel();
    };
  }, [wanted, events, watchUrl, base, currency, channelName]);
  useEffect(() => {
    if (!json || typeof document === 'undefined' || !document.head) return;
    const script = document.createElement('script');
    script.type = 'application/ld+json';
    script.dataset.channelSchedule = '';
    if (!json.write(script, json.text, env().logger)) return;
    document.head.append(script);
    return () => script.remove();
  }, [json]);
}
