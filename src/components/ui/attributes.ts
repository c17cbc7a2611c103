/**
 * The one attribute pipeline of the tags: parse the raw attribute strings once per change of their values, show
 * each ignored value as a translated notice in the element and tell the page author once in an English console
 * line. A bad value is ignored, never a crash.
 */
import { useEffect, useMemo } from 'react';
import { env } from '../../lib/env.js';
import { ID_PATTERN } from '../../lib/ids.js';

/** A value that was ignored, to tell the page author. */
export interface AttributeNotice {
  name: string;
  value: string;
  expected: string;
}

/** A parse result: the safe options and the ignored values. */
export interface Parsed<O> {
  options: O;
  notices: AttributeNotice[];
}

/** A present boolean attribute is true unless it says "false" (r2wc hands an empty value as ''). */
export function boolAttr(value: string | undefined): boolean {
  return value !== undefined && value !== null && value.trim().toLowerCase() !== 'false';
}

/** Collects notices while parsing; the helpers read one attribute each. */
export class AttributeReader {
  readonly notices: AttributeNotice[] = [];

  /** Records an ignored value. */
  ignore(name: string, value: string, expected: string): undefined {
    this.notices.push({ name, value, expected });
    return undefined;
  }

  /** An id attribute: digits only (see `ID_PATTERN`). */
  id(name: string, value: string | undefined, pattern: RegExp = ID_PATTERN): string | undefined {
    const v = value?.trim();
    if (!v) return undefined;
    return pattern.test(v) ? v : this.ignore(name, v, 'digits only');
  }

  /** One of a fixed set (case-insensitive), else the fallback. */
  pick<T extends string>(name: string, value: string | undefined, allowed: readonly T[], fallback: T): T {
    if (value === undefined || value === '') return fallback;
    const v = value.trim().toLowerCase() as T;
    if (allowed.includes(v)) return v;
    this.ignore(name, value, allowed.join(', '));
    return fallback;
  }

  /** Wraps up the parse. */
  done<O>(options: O): Parsed<O> {
    return { options, notices: this.notices };
  }
}

/** The console line for an ignored value. */
export function noticeLine(tag: string, notice: AttributeNotice): string {
  return `<${tag}>: ignored ${notice.name}="${notice.value}"; expected ${notice.expected}.`;
}

/**
 * Parses a tag's attributes (`names` are its props, listed once) whenever one of their values changes, and logs
 * each new set of notices once.
 */
export function useAttributes<P extends Partial<Record<string, string>>, O>(
  tag: string,
  names: readonly (keyof P & string)[],
  props: P,
  parse: (props: P) => Parsed<O>,
): Parsed<O> {
  const key = JSON.stringify(names.map((name) => props[name] ?? null));
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the values, not the props object: r2wc hands a new one on every render
  const parsed = useMemo(() => parse(props), [key]);
  const lines = parsed.notices.map((n) => noticeLine(tag, n)).join('\n');
  useEffect(() => {
    if (lines) for (const line of lines.split('\n')) env().logger.warn(line);
  }, [lines]);
  return parsed;
}
