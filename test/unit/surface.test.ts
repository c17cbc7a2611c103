// The public surface (elements/surface.ts) against the code it describes: every attribute each element reads (its
// props list, in the order it reads them), the player's media events, the ad events, the event classes' names and
// the media API members on a real <channel-player>. The CSS parts are checked against what the tests render
// (scripts/manifest.ts --parts), the committed generated files against the surface (--check).
import { expect } from '@open-wc/testing';
import { ELEMENTS, MEDIA_EVENT_NAMES } from '../../elements/surface.js';
import { createPlayerElement } from '../../elements/channel-player.js';
import { APP_PROPS } from '../../src/components/app/App.js';
import { CHECKOUT_PROPS } from '../../src/components/checkout/attributes.js';
import { PLAYER_PROPS } from '../../src/components/player/attributes.js';
import { PROFILE_PROPS } from '../../src/components/profile/attributes.js';
import { SCHEDULE_PROPS } from '../../src/components/schedule/attributes.js';
import * as Events from '../../src/events/index.js';
import { AD_END_EVENT, AD_START_EVENT, MEDIA_EVENTS } from '../../src/media/element-api.js';

const PROPS: Record<string, readonly string[]> = {
  'channel-schedule': SCHEDULE_PROPS,
  'channel-player': PLAYER_PROPS,
  'channel-checkout': CHECKOUT_PROPS,
  'channel-profile': PROFILE_PROPS,
  'channel-app': APP_PROPS,
};

describe('the documented surface', () => {
  it('describes every attribute each element reads, and no other', () => {
    for (const el of ELEMENTS) expect(Object.keys(el.attributes), el.tag).to.deep.equal([...PROPS[el.tag]!]);
  });

  it("lists the player's media events as the element dispatches them again, and its ad events", () => {
    expect([...MEDIA_EVENT_NAMES]).to.deep.equal([...MEDIA_EVENTS]);
    const player = ELEMENTS.find((el) => el.tag === 'channel-player')!;
    const names = player.events.map((e) => e.name);
    expect(names).to.include.members([AD_START_EVENT, AD_END_EVENT, ...MEDIA_EVENTS]);
  });

  it('names each custom event by its class, whose type is that name', () => {
    for (const el of ELEMENTS) {
      for (const event of el.events) {
        if (event.type === 'Event') continue;
        expect((Events[event.type] as unknown as { type: string }).type, `${el.tag} ${event.name}`).to.equal(
          event.name,
        );
      }
    }
  });

  it("has <channel-player>'s media API on the element: every member documented, of the documented kind", () => {
    const Player = createPlayerElement();
    const tag = `surface-player-${Math.random().toString(36).slice(2)}`;
    customElements.define(tag, Player);
    const player = document.createElement(tag) as unknown as Record<string, unknown>;
    for (const member of ELEMENTS.find((el) => el.tag === 'channel-player')!.members) {
      expect(member.name in player, member.name).to.equal(true);
      if (member.kind === 'method') expect(typeof player[member.name], member.name).to.equal('function');
      else expect(typeof player[member.name], member.name).to.not.equal('function');
    }
  });
});
