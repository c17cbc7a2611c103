/** `<channel-profile>`: sign-in, registration, account links and the signed-in viewer's account. */
import { PROFILE_PROPS } from '../src/components/profile/attributes.js';
import { Profile } from '../src/components/profile/Profile.js';
import { applyConfig } from '../src/start.js';
import { elementStarted } from '../src/stores/analytics/port.js';
import type { ConfigureOptions } from '../src/stores/config.js';
import { defineOnce, makeElement } from './define.js';

/**
 * The element class. Its attributes, events, slots, parts and custom properties are written in elements/surface.ts
 * (the generated reference: elements/README.md).
 */
export const createProfileElement = () => makeElement(Profile, PROFILE_PROPS);

/** Configures the session (first chunk wins) and defines the tag. */
export function start(options: ConfigureOptions, base: string): void {
  applyConfig(options, base);
  elementStarted('channel-profile');
  defineOnce('channel-profile', createProfileElement);
}
