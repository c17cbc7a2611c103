/**
 * The favourites star of a signed-in viewer: a disclosure button opening a small popover of "Follow" toggles
 * for the event's teams, their schools and its sport. Only the open popover watches the favourites; a card
 * learns whether it is followed from one boolean prop.
 */
import { useStore } from '../ui/use-store.js';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Event, EventCategory } from '../../api/channel-schemas.js';
import { categories, participantGroups } from '../../stores/catalog.js';
import {
  $favouriteIndex,
  addFavourite,
  eventTargets,
  favouriteKey,
  removeFavourite,
  type FavouriteTarget,
} from '../../stores/favourites.js';
import { useElement, useStyles } from '../ui/context.js';
import { watchPressOutside } from './shared.js';

/** The star and, while open, its popover. */
export function FollowStar(props: { event: Event; title: string; following: boolean }): ReactNode {
  const { t } = useElement();
  const [open, setOpen] = useState(false);
  const star = useRef<HTMLButtonElement>(null);
  const wrap = useRef<HTMLSpanElement>(null);
  const popoverId = useId();
  const close = useCallback((refocus: boolean) => {
    setOpen(false);
    if (refocus) star.current?.focus();
  }, []);

  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key !== 'Escape' || !open) return;
    e.stopPropagation();
    close(true);
  };
  const onBlur = (e: { relatedTarget: EventTarget | null }) => {
    // Tabbing out of the popover closes it; focus lost to nowhere (a click on the page) is the pointer's case.
    const next = e.relatedTarget as Node | null;
    if (open && next && !wrap.current?.contains(next)) close(false);
  };

  return (
    <span className="follow-wrap" ref={wrap} onKeyDown={onKeyDown} onBlur={onBlur}>
      <button
        ref={star}
        type="button"
        className={props.following ? 'star on' : 'star'}
        part={props.following ? 'favourite favourite-following' : 'favourite'}
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        aria-label={t(props.following ? 'schedule.favourite.following' : 'schedule.favourite.add', {
          name: props.title,
        })}
        onClick={() => setOpen((o) => !o)}
      >
        {props.following ? '★' : '☆'}
      </button>
      {open ? <FollowPopover id={popoverId} event={props.event} wrap={wrap} onClose={close} /> : null}
    </span>
  );
}

/** The toggles. Closes on a press outside the star and popover. */
function FollowPopover(props: {
  id: string;
  event: Event;
  wrap: { current: HTMLElement | null };
  onClose(refocus: boolean): void;
}): ReactNode {
  useStyles(popoverCss);
  const { t } = useElement();
  const { event, wrap, onClose } = props;
  const index = useStore($favouriteIndex);
  const groups = useStore(participantGroups.$items);
  const cats = useStore(categories.$items);
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [failed, setFailed] = useState(false);
  const titleId = useId();

  const targets = eventTargets(event);
  const needsGroups = targets.some((target) => target.type === 'group');
  const needsCategories = targets.some((target) => target.type === 'category' && !target.name);
  useEffect(() => {
    // Names of schools (and of a sport the event does not name) come from the catalogues; best effort.
    if (needsGroups) participantGroups.load().catch(() => undefined);
    if (needsCategories) categories.load().catch(() => undefined);
  }, [needsGroups, needsCategories]);

  useEffect(() => {
    if (wrap.current) return watchPressOutside(wrap.current, () => onClose(false));
  }, [wrap, onClose]);

  // A school or sport whose name is not known (yet) is left out rather than shown as a number.
  const named = targets
    .map((target) => ({ ...target, name: target.name ?? catalogName(target, groups, cats) }))
    .filter((target): target is FavouriteTarget & { name: string } => Boolean(target.name));

  const toggle = async (target: FavouriteTarget) => {
    const key = favouriteKey(target.type, target.id);
    if (busy.has(key)) return;
    setBusy((b) => new Set(b).add(key));
    setFailed(false);
    try {
      const existing = $favouriteIndex.get().get(key);
      if (existing) await removeFavourite(target.type, existing.id);
      else await addFavourite(target.type, target.id);
    } catch {
      setFailed(true);
    } finally {
      setBusy((b) => {
        const next = new Set(b);
        next.delete(key);
        return next;
      });
    }
  };

  return (
    <div id={props.id} className="follow" role="group" aria-labelledby={titleId} part="favourite-popover">
      <p className="follow-title" id={titleId}>
        {t('schedule.favourite.title')}
      </p>
      {named.length === 0 ? (
        <p className="detail">{t('schedule.favourite.nothing')}</p>
      ) : (
        <ul>
          {named.map((target) => {
            const key = favouriteKey(target.type, target.id);
            const on = index.has(key);
            return (
              <li key={key}>
                <button
                  type="button"
                  className="toggle"
                  part="favourite-toggle"
                  aria-pressed={on}
                  aria-busy={busy.has(key) || undefined}
                  onClick={() => void toggle(target)}
                >
                  <span className="check" aria-hidden="true">
                    {on ? '✓' : '+'}
                  </span>
                  <span className="toggle-name">{target.name}</span>
                  <span className="toggle-kind">{t(`schedule.favourite.kinds.${target.type}`)}</span>
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {failed ? (
        <p className="follow-error" role="alert">
          {t('schedule.favourite.saveError')}
        </p>
      ) : null}
    </div>
  );
}

/** The name of a school or sport from the loaded catalogues. */
function catalogName(
  target: FavouriteTarget,
  groups: { id: number; name: string }[] | undefined,
  cats: EventCategory[] | undefined,
): string | undefined {
  if (target.type === 'group') return groups?.find((g) => g.id === target.id)?.name;
  if (target.type !== 'category') return undefined;
  const find = (list: EventCategory[] | undefined): EventCategory | undefined => {
    for (const c of list ?? []) {
      const hit = c.id === target.id ? c : find(c.children);
      if (hit) return hit;
    }
    return undefined;
  };
  return find(cats)?.name;
}

/** The popover's styles, adopted while one is open: they travel in this chunk, not in the schedule's first one. */
const popoverCss = /* css */ `
.follow {
  position: absolute; top: 46px; right: 8px; z-index: 3; min-width: 220px; max-width: min(320px, calc(100vw - 24px));
  padding: 10px; border-radius: var(--_radius); border: 1px solid var(--_line);
  background: var(--channel-popover-background, var(--channel-card-background, #fff)); box-shadow: 0 6px 20px rgba(0,0,0,.16);
  text-align: start; font-size: .92em;
}
.follow-title { font-weight: 700; margin-bottom: 6px; }
.follow ul { list-style: none; display: grid; gap: 4px; }
.toggle {
  display: flex; width: 100%; align-items: center; gap: 8px; min-height: 34px; padding: 4px 8px; border-radius: 8px;
  background: transparent; border: 1px solid var(--_line); cursor: pointer; text-align: start;
}
.toggle:hover { border-color: var(--_accent); }
.toggle[aria-pressed="true"] { background: var(--_accent); color: var(--_accent-text); border-color: transparent; }
.toggle[aria-busy="true"] { opacity: .6; cursor: progress; }
.toggle .check { width: 1em; text-align: center; font-weight: 700; }
.toggle-name { flex: 1; min-width: 0; overflow-wrap: anywhere; }
.toggle-kind { font-size: .8em; opacity: .8; }
.follow-error { margin-top: 6px; color: var(--channel-error, #b3261e); font-size: .9em; }
td .follow { top: 44px; }
`;
