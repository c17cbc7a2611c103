/**
 * What every carousel of ours shares (the home's slides, the library's rails): whether the viewer asked for less
 * motion, the hold while the pointer is over it or focus is inside it, the timer that advances it, and its
 * previous and next buttons. Each carousel keeps its own idea of what "advance" means (the next slide, one
 * card further).
 */
import { useEffect, useRef, useState, type FocusEvent, type ReactNode } from 'react';
import { env } from '../../lib/env.js';

// Whether the viewer asked for less motion (read when a carousel mounts).
export { prefersReducedMotion } from '../../lib/motion.js';

/** The handlers that hold a carousel still, for its root element. */
export interface HoldHandlers {
  onMouseEnter(): void;
  onMouseLeave(): void;
  onFocus(): void;
  onBlur(event: FocusEvent<HTMLElement>): void;
}

/**
 * Whether the carousel is held: the pointer is over it or focus is inside it, so it never moves under someone
 * reading or tabbing. Spread `handlers` on the carousel's root.
 */
export function useHold(): { held: boolean; handlers: HoldHandlers } {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  return {
    held: hovered || focused,
    handlers: {
      onMouseEnter: () => setHovered(true),
      onMouseLeave: () => setHovered(false),
      onFocus: () => setFocused(true),
      onBlur: (e) => {
        // Focus moving between the carousel's own controls keeps it held.
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setFocused(false);
      },
    },
  };
}

/**
 * Calls `advance` every `ms` while `running` (on the environment's clock, so tests drive it), counting afresh
 * after each step and whenever `restart` changes (the viewer moved it by hand).
 */
export function useAutoAdvance(running: boolean, ms: number, advance: () => void, restart?: unknown): void {
  const step = useRef(advance);
  useEffect(() => {
    step.current = advance;
  });
  const [round, setRound] = useState(0);
  useEffect(() => {
    if (!running) return;
    const clock = env();
    const timer = clock.setTimeout(() => {
      step.current();
      setRound((r) => r + 1);
    }, ms);
    return () => clock.clearTimeout(timer);
  }, [running, ms, round, restart]);
}

/** A carousel's previous or next button. */
export function StepButton(props: {
  part: string;
  controls: string;
  label: string;
  sign: string;
  className?: string | undefined;
  disabled?: boolean | undefined;
  onClick(): void;
}): ReactNode {
  return (
    <button
      type="button"
      className={props.className ?? 'carousel-button'}
      part={props.part}
      aria-controls={props.controls}
      aria-label={props.label}
      disabled={props.disabled}
      onClick={props.onClick}
    >
      <span aria-hidden="true">{props.sign}</span>
    </button>
  );
}

/** A carousel's pause (or play) button: a carousel that moves by itself must let the viewer stop it. */
export function PauseButton(props: {
  part: string;
  playing: boolean;
  labels: { pause: string; play: string };
  className?: string | undefined;
  onClick(): void;
}): ReactNode {
  return (
    <button
      type="button"
      className={props.className ?? 'carousel-button'}
      part={props.part}
      onClick={props.onClick}
      aria-label={props.playing ? props.labels.pause : props.labels.play}
    >
      <span aria-hidden="true">{props.playing ? '❚❚' : '▶'}</span>
    </button>
  );
}
