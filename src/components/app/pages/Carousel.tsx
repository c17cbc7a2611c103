/**
 * The home page's slides as a carousel, in the manner of the WAI-ARIA carousel pattern: a labelled region, each
 * slide a group named "n of N", previous and next buttons, and a pause button. It advances every 5 s unless the
 * viewer prefers reduced motion, and waits while the pointer is over it or focus is inside it (so it never moves
 * under someone reading or tabbing). Only the slide in view can be reached by Tab. Arrow keys move between slides.
 */
import { useId, useState, type KeyboardEvent, type ReactNode } from 'react';
import type { Slide } from '../../../api/site-schemas.js';
import { PauseButton, prefersReducedMotion, StepButton, useAutoAdvance, useHold } from '../../ui/carousel.js';
import { useElement } from '../../ui/context.js';
import { channelLink, safeUrl } from '../links.js';
import { useSite } from '../site.js';

/** How long each slide shows before the next. */
export const SLIDE_MS = 5_000;

/** Where a slide's link goes: a site path in the app, an http(s) address in a new tab, anything else nowhere. */
export const slideLink = channelLink;

/** The carousel; nothing for no slides, one slide without controls. */
export function Carousel(props: { slides: readonly Slide[]; label: string }): ReactNode {
  const { t } = useElement();
  const { href } = useSite();
  const { slides } = props;
  const [index, setIndex] = useState(0);
  const [playing, setPlaying] = useState(() => !prefersReducedMotion());
  const { held, handlers } = useHold();
  const id = useId();
  const count = slides.length;
  const current = Math.min(index, Math.max(0, count - 1));
  useAutoAdvance(playing && !held && count > 1, SLIDE_MS, () => setIndex((i) => (i + 1) % count), current);

  if (count === 0) return null;
  const go = (to: number) => setIndex((to + count) % count);
  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'ArrowRight') go(current + 1);
    else if (e.key === 'ArrowLeft') go(current - 1);
    else return;
    e.preventDefault();
  };

  return (
    <section
      className="carousel"
      part="carousel"
      aria-roledescription={t('site:home.carousel')}
      aria-label={props.label}
      {...handlers}
      onKeyDown={onKey}
    >
      {count > 1 ? (
        <div className="carousel-controls">
          <PauseButton
            part="carousel-pause"
            playing={playing}
            labels={{ pause: t('site:home.pause'), play: t('site:home.play') }}
            onClick={() => setPlaying(!playing)}
          />
          <StepButton
            part="carousel-previous"
            controls={id}
            label={t('site:home.previous')}
            sign="‹"
            onClick={() => go(current - 1)}
          />
          <StepButton
            part="carousel-next"
            controls={id}
            label={t('site:home.next')}
            sign="›"
            onClick={() => go(current + 1)}
          />
        </div>
      ) : null}
      <div id={id} className="slides" aria-live={playing && !held ? 'off' : 'polite'}>
        {slides.map((slide, i) => {
          const shown = i === current;
          const link = slideLink(slide.link);
          const image = safeUrl(slide.image);
          const body = (
            <>
              {image ? <img src={image} alt="" loading={i === 0 ? 'eager' : 'lazy'} /> : null}
              {slide.title ? <span className="slide-title">{slide.title}</span> : null}
            </>
          );
          return (
            <div
              key={slide.id}
              className="slide"
              part="slide"
              role="group"
              aria-roledescription={t('site:home.slide')}
              aria-label={t('site:home.slideOf', { n: i + 1, count, title: slide.title ?? '' })}
              hidden={!shown}
            >
              {link ? (
                <a
                  href={link.external ? link.href : href(link.href)}
                  {...(link.external ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
                >
                  {body}
                </a>
              ) : (
                body
              )}
            </div>
          );
        })}
      </div>
      {count > 1 ? (
        <div className="dots" aria-hidden="true">
          {slides.map((slide, i) => (
            <span key={slide.id} className={i === current ? 'dot current' : 'dot'} />
          ))}
        </div>
      ) : null}
    </section>
  );
}
