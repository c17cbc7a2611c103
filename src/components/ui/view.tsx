/**
 * What a feature view may ask of whoever renders it. A view never looks up its element: the standalone tag
 * answers these with the public DOM events it fires (and the request stores, so a profile or checkout elsewhere
 * on the page answers); `<channel-app>` answers with its router.
 */
import { createContext, useContext } from 'react';
import {
  ChannelEventSelectEvent,
  ChannelLoginRequestEvent,
  ChannelPurchaseRequestEvent,
  ChannelVodSelectEvent,
  own,
} from '../../events/viewer.js';
import type { AccountScreenName } from '../../lib/account-routes.js';
import type { MediaHost } from '../../media/element-api.js';
import { requestPurchase, requestSignIn, type PurchaseRequest, type SignInRequest } from '../../stores/requests.js';

/** Where a view asks to go. */
export type OpenRequest =
  | { to: 'event'; id: number }
  /** A video-on-demand library item. */
  | { to: 'library-item'; id: number }
  | ({ to: 'offer' } & PurchaseRequest)
  | ({ to: 'sign-in' } & SignInRequest)
  | { to: 'profile'; section: string }
  /**
   * The profile view moved to one of its screens: a site, or a tag on a host page at an account path, keeps its
   * address in step (`replace`: in place of the current entry, for a screen that follows from the one before).
   */
  | { to: 'account'; screen: AccountScreen; replace?: boolean };

/** The screens of the profile view: those with an address of their own, and the profile's home. */
export type AccountScreen = AccountScreenName | 'home';

/** The capabilities a view gets from its root. */
export interface ViewHost {
  /**
   * Asks to navigate. Returns false when the request was taken care of and a link the viewer activated must not
   * be followed (the host cancelled `channel-event-select`, or a router navigated).
   */
  open(request: OpenRequest): boolean;
  /** Fires a public event for the host page from the root element (output only; see `own`). */
  emit(event: Event): boolean;
  /** Brings the view into sight (a request from elsewhere on the page opened it). */
  reveal(options?: ScrollIntoViewOptions): void;
  /**
   * Puts a node in the root element's light DOM (shown through a `<slot>` of the same name): Stripe's card field
   * cannot live inside a shadow root. Returns the removal.
   */
  attachLight(node: HTMLElement): () => void;
  /**
   * The page address of a path of the channel's site, when the view is inside it (`<channel-app>`, under its
   * base); a standalone tag has none.
   */
  siteHref?: ((path: string) => string) | undefined;
  /** The root element's media API (`<channel-player>`): the stage a player view plays on. */
  media?: MediaHost | undefined;
}

/** The tag's answers: public events from the element (marked as ours), and the request stores. */
export function tagViewHost(element: HTMLElement, overrides: Partial<ViewHost> = {}): ViewHost {
  const emit = (event: Event) => element.dispatchEvent(own(event));
  return {
    open(request) {
      switch (request.to) {
        case 'event':
          return emit(new ChannelEventSelectEvent({ id: request.id }));
        case 'library-item':
          return emit(new ChannelVodSelectEvent({ id: request.id }));
        case 'offer':
          requestPurchase({ eventId: request.eventId, offer: request.offer });
          emit(new ChannelPurchaseRequestEvent({ eventId: request.eventId, offer: request.offer }));
          return false;
        case 'sign-in': {
          // The detail has an eventId key only when the view gave one (the schedule's Sign in sends `{ reason }`).
          const detail =
            'eventId' in request ? { reason: request.reason, eventId: request.eventId } : { reason: request.reason };
          requestSignIn(detail);
          emit(new ChannelLoginRequestEvent(detail));
          return false;
        }
        default:
          return true;
      }
    },
    emit,
    reveal: (options) => element.scrollIntoView?.({ block: 'start', ...options }),
    attachLight(node) {
      element.appendChild(node);
      return () => node.remove();
    },
    ...overrides,
  };
}

const Ctx = createContext<ViewHost | null>(null);

/** Provides the view host to the views below. */
export const ViewHostProvider = Ctx.Provider;

/** The capabilities of the view's root. */
export function useViewHost(): ViewHost {
  const host = useContext(Ctx);
  if (!host) throw new Error('useViewHost() outside a view root (ElementShell or the site)');
  return host;
}
