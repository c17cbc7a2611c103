/**
 * The `favourites` section of `<channel-profile>`: the signed-in user's favourites by kind. Teams, schools and
 * sports can be removed and added (from the channel's catalogues); favourite events and event locations follow
 * from them and are read-only. Logic lives in the favourites store; this renders and forwards.
 */
import { useStore } from '../ui/use-store.js';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type ReactNode } from 'react';
import type { EventCategory, Participant } from '../../api/channel-schemas.js';
import type { Favourite, Favourites } from '../../api/account-schemas.js';
import { dateFormat } from '../../lib/time.js';
import { categories, participantGroups, participants, teamChoices, type Catalog } from '../../stores/catalog.js';
import {
  $favourites,
  $favouritesStatus,
  addFavourite,
  CHOSEN_KINDS,
  reloadFavourites,
  removeFavourite,
  type ChosenKind,
} from '../../stores/favourites.js';
import { $user } from '../../stores/session.js';
import { errorText } from '../ui/messages.js';
import { LoadingPanel } from '../ui/panels.js';
import { useElement } from '../ui/shell.js';
import { addBundledTexts } from '../../i18n/index.js';
import { favouritesEn } from '../../i18n/favourites-en.js';

// The panel's English texts travel with it, not in the shared chunk: added as this module is evaluated.
addBundledTexts('en', { favourites: favouritesEn });

/** Styles of the panel, for the profile element's sheet (shared widgets come from the base styles). */
export const favouritesCss = /* css */ `
.favourites { display: grid; gap: 18px; }
.favourite-group { display: grid; gap: 8px; }
.favourite-group h3 { font-size: 1.05em; font-weight: 700; }
.favourite-list { list-style: none; display: grid; gap: 6px; }
.favourite-item {
  display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 4px 12px;
  padding: 8px 12px; border-radius: var(--_radius); background: var(--_surface); border: 1px solid var(--_line);
}
.favourite-item .detail { display: block; }
.favourite-add { display: flex; flex-wrap: wrap; align-items: end; gap: 8px; }
.favourite-add label { display: grid; gap: 2px; font-size: .85em; color: var(--_muted); }
.favourite-add select {
  min-width: 200px; min-height: 34px; padding: 4px 8px; border: 1px solid var(--_line); border-radius: 8px;
  background: var(--channel-input-background, #fff); color: var(--channel-input-text, #16181d); font-size: 1.05em;
}
.favourite-error { color: var(--channel-error, #b3261e); font-size: .9em; }
`;

/** The chosen kinds in display order, with the catalogue each one picks from. */
const CHOICES: readonly { kind: ChosenKind; catalog: Catalog<{ id: number; name: string }> }[] = [
  { kind: 'participant', catalog: participants },
  { kind: 'participant_group', catalog: participantGroups },
  { kind: 'event_category', catalog: categories as Catalog<EventCategory> },
];

/** The panel. */
export function FavouritesPanel(): ReactNode {
  const { t } = useElement();
  const user = useStore($user);
  const favourites = useStore($favourites);
  const status = useStore($favouritesStatus);
  const [announcement, setAnnouncement] = useState('');

  if (!user) {
    return (
      <div className="favourites" part="favourites">
        <p>{t('favourites.signedOut')}</p>
      </div>
    );
  }
  const failed = status.status === 'error' ? status.error : undefined;
  return (
    <div className="favourites" part="favourites" aria-busy={status.status === 'loading'}>
      <p className="sr-only" role="status" aria-live="polite">
        {announcement}
      </p>
      {failed ? (
        <div className="panel error" role="alert" part="error">
          <p>{t('favourites.loadError')}</p>
          <p className="detail">{errorText(failed, t)}</p>
          <button
            type="button"
            className="btn"
            part="button"
            onClick={() => void reloadFavourites().catch(() => undefined)}
          >
            {t('common.retry')}
          </button>
        </div>
      ) : null}
      {!favourites ? (
        failed ? null : (
          <LoadingPanel text={t('favourites.loading')} />
        )
      ) : (
        <>
          {CHOICES.map(({ kind, catalog }) => (
            <ChosenGroup key={kind} kind={kind} catalog={catalog} items={favourites[kind]} announce={setAnnouncement} />
          ))}
          <DerivedGroup kind="favorite_event" favourites={favourites} />
          <DerivedGroup kind="event_location" favourites={favourites} />
        </>
      )}
    </div>
  );
}

/** A kind the user chooses: its favourites with Remove, and the Add control. */
function ChosenGroup(props: {
  kind: ChosenKind;
  catalog: Catalog<{ id: number; name: string }>;
  items: Favourite[];
  announce(text: string): void;
}): ReactNode {
  const { t } = useElement();
  const { kind, catalog, items, announce } = props;
  const type = CHOSEN_KINDS[kind];
  const headingId = useId();
  const selectId = useId();
  const section = useRef<HTMLElement>(null);
  const all = useStore(catalog.$items);
  const [catalogFailed, setCatalogFailed] = useState(false);
  const [busy, setBusy] = useState<ReadonlySet<number>>(new Set());
  const [error, setError] = useState<string | undefined>(undefined);
  const [choice, setChoice] = useState('');
  const [adding, setAdding] = useState(false);
  /** After a removal: which row's Remove button takes the focus (the one now at that place, else the last). */
  const [refocus, setRefocus] = useState<number | undefined>(undefined);

  const loadCatalog = () => {
    setCatalogFailed(false);
    catalog.load().catch(() => setCatalogFailed(true));
  };
  useEffect(loadCatalog, [catalog]);

  const flat = useMemo(
    () => (kind === 'event_category' ? flattenCategories((all ?? []) as EventCategory[]) : (all ?? [])),
    [all, kind],
  );
  const options = useMemo(() => {
    const chosen = new Set(items.map((f) => f.favoritable_id));
    return flat.filter((item) => !chosen.has(item.id)).sort((a, b) => a.name.localeCompare(b.name));
  }, [flat, items]);
  const nameOf = (f: Favourite) =>
    f.name || flat.find((item) => item.id === f.favoritable_id)?.name || `#${f.favoritable_id}`;

  useEffect(() => {
    if (refocus === undefined) return;
    setRefocus(undefined);
    const buttons = section.current?.querySelectorAll<HTMLButtonElement>('[part~="favourite-remove"]') ?? [];
    const next = buttons[Math.min(refocus, buttons.length - 1)];
    if (next) next.focus();
    else section.current?.querySelector('select')?.focus();
  }, [refocus, items]);

  const remove = async (favourite: Favourite, at: number) => {
    if (busy.has(favourite.id)) return;
    const name = nameOf(favourite);
    setBusy((b) => new Set(b).add(favourite.id));
    setError(undefined);
    try {
      await removeFavourite(type, favourite.id);
      announce(t('favourites.removed', { name }));
      setRefocus(at);
    } catch {
      setError(t('favourites.removeError', { name }));
    } finally {
      setBusy((b) => {
        const next = new Set(b);
        next.delete(favourite.id);
        return next;
      });
    }
  };

  const add = async (e: FormEvent) => {
    e.preventDefault();
    const id = Number(choice);
    if (!choice || adding) {
      section.current?.querySelector('select')?.focus();
      return;
    }
    const name = options.find((o) => o.id === id)?.name ?? '';
    setAdding(true);
    setError(undefined);
    try {
      await addFavourite(type, id);
      setChoice('');
      announce(t('favourites.added', { name }));
    } catch {
      setError(t('favourites.addError'));
    } finally {
      setAdding(false);
    }
  };

  return (
    <section
      className="favourite-group"
      aria-labelledby={headingId}
      part="favourite-group"
      data-kind={kind}
      ref={section}
    >
      <h3 id={headingId}>{t(`favourites.kinds.${kind}`)}</h3>
      {items.length === 0 ? (
        <p className="detail">{t(`favourites.empty.${kind}`)}</p>
      ) : (
        <ul className="favourite-list">
          {items.map((favourite, i) => (
            <li key={favourite.id} className="favourite-item" part="favourite">
              <span>{nameOf(favourite)}</span>
              <button
                type="button"
                className="btn secondary"
                part="favourite-remove"
                aria-label={t('favourites.removeLabel', { name: nameOf(favourite) })}
                aria-busy={busy.has(favourite.id) || undefined}
                onClick={() => void remove(favourite, i)}
              >
                {t('favourites.remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      <form className="favourite-add" part="favourite-add" onSubmit={(e) => void add(e)}>
        <label htmlFor={selectId}>{t(`favourites.addLabel.${kind}`)}</label>
        <select id={selectId} value={choice} onChange={(e) => setChoice(e.target.value)}>
          <option value="">{t('favourites.choose')}</option>
          {kind === 'participant'
            ? // A team with teams of its own (a club's squads) is a group: the team, then each of them.
              teamChoices(options, (all ?? []) as Participant[]).map(({ team, children }) =>
                children.length ? (
                  <optgroup key={team.id} label={team.name}>
                    {[team, ...children].map((item) => (
                      <option key={item.id} value={String(item.id)}>
                        {item.name}
                      </option>
                    ))}
                  </optgroup>
                ) : (
                  <option key={team.id} value={String(team.id)}>
                    {team.name}
                  </option>
                ),
              )
            : options.map((item) => (
                <option key={item.id} value={String(item.id)}>
                  {item.name}
                </option>
              ))}
        </select>
        <button type="submit" className="btn" aria-busy={adding || undefined}>
          {t('favourites.add')}
        </button>
      </form>
      {catalogFailed ? (
        <p className="favourite-error" role="alert">
          {t('favourites.catalogError')}{' '}
          <button type="button" className="btn secondary" onClick={loadCatalog}>
            {t('common.retry')}
          </button>
        </p>
      ) : null}
      {error ? (
        <p className="favourite-error" role="alert">
          {error}
        </p>
      ) : null}
    </section>
  );
}

/** A kind that follows from the chosen ones: favourite events (name and date) or event locations. */
function DerivedGroup(props: { kind: 'favorite_event' | 'event_location'; favourites: Favourites }): ReactNode {
  const { t, lang } = useElement();
  const headingId = useId();
  const { kind, favourites } = props;
  const rows: { key: number; name: string; detail: ReactNode }[] =
    kind === 'favorite_event'
      ? favourites.favorite_event.map((event) => {
          const at = new Date(event.event_utc_ts * 1000);
          return {
            key: event.id,
            name: event.name,
            detail: (
              <time dateTime={at.toISOString()}>
                {dateFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(at)}
              </time>
            ),
          };
        })
      : favourites.event_location.map((location) => ({
          key: location.id,
          name: location.name,
          detail: [location.city, location.state].filter(Boolean).join(', '),
        }));
  return (
    <section className="favourite-group" aria-labelledby={headingId} part="favourite-group" data-kind={kind}>
      <h3 id={headingId}>{t(`favourites.kinds.${kind}`)}</h3>
      <p className="detail">{t('favourites.derived')}</p>
      {rows.length === 0 ? (
        <p className="detail">{t(`favourites.empty.${kind}`)}</p>
      ) : (
        <ul className="favourite-list">
          {rows.map((row) => (
            <li key={row.key} className="favourite-item" part="favourite">
              <span>{row.name}</span>
              {row.detail ? <span className="detail">{row.detail}</span> : null}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Every category of the tree, children named after their parent ("Hockey › Men's Hockey"). */
function flattenCategories(tree: EventCategory[], parent?: string): { id: number; name: string }[] {
  return tree.flatMap((c) => {
    const name = parent ? `${parent} › ${c.name}` : c.name;
    return [{ id: c.id, name }, ...flattenCategories(c.children ?? [], name)];
  });
}
