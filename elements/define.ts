/**
 * Turns a React component into a custom element class with r2wc, fixing what r2wc leaves to us:
 * - an empty attribute (`<channel-schedule show-filters>`) reaches the component as '' instead of being dropped;
 * - a removed attribute resets its prop instead of keeping the old value;
 * - properties set on the element before its class was defined (the tag was upgraded late, after our chunk
 *   loaded) are re-applied through the real setters;
 * and registers it at most once, so loading the script twice is harmless.
 */
import r2wc from '@r2wc/react-to-web-component';
import type { ComponentType } from 'react';

const PROPS = Symbol.for('r2wc.props');
const RENDER = Symbol.for('r2wc.render');

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

type R2wcInternals = HTMLElement & {
  [PROPS]: Record<string, unknown>;
  [RENDER](): void;
};

/** Builds the element class for a component whose props are all string attributes. */
export function makeElement(component: ComponentType<never>, props: readonly string[]): CustomElementConstructor {
  const Base = r2wc(component as ComponentType, {
    shadow: 'open',
    props: Object.fromEntries(props.map((p) => [p, 'string'])) as Record<string, 'string'>,
  }) as unknown as CustomElementConstructor;
  const byAttribute = new Map(props.map((p) => [kebab(p), p]));

  class ChannelElement extends (Base as unknown as { new (): R2wcInternals }) {
    constructor() {
      super();
      for (const [attribute, prop] of byAttribute) {
        if (this.getAttribute(attribute) === '') this[PROPS][prop] = '';
      }
      // Lazy properties: a value assigned before upgrade shadows the prototype's accessor.
      for (const prop of props) {
        if (Object.prototype.hasOwnProperty.call(this, prop)) {
          const value = (this as unknown as Record<string, unknown>)[prop];
          delete (this as unknown as Record<string, unknown>)[prop];
          (this as unknown as Record<string, unknown>)[prop] = value;
        }
      }
    }

    attributeChangedCallback(name: string, old: string | null, value: string | null): void {
      const prop = byAttribute.get(name);
      if (prop && (value === null || value === '')) {
        this[PROPS][prop] = value === null ? undefined : '';
        this[RENDER]();
        return;
      }
      (
        Base.prototype as unknown as { attributeChangedCallback(n: string, o: string | null, v: string | null): void }
      ).attributeChangedCallback.call(this, name, old, value);
    }
  }
  return ChannelElement as unknown as CustomElementConstructor;
}

/** Defines a tag unless it already is (the script loaded twice, or the npm build and the script tag together). */
export function defineOnce(tag: string, element: () => CustomElementConstructor): void {
  if (!customElements.get(tag)) customElements.define(tag, element());
}
