/**
 * English texts of the `translation` namespace every page has at once: with the texts that travel with their own
 * code (the player's, `player-en.ts`; the favourites panel's, `favourites-en.ts`; the schedule's filters' and
 * calendar's, `filters-en.ts` and `calendar-en.ts`), the source of truth for its keys. `fr.ts` must have exactly the
 * shape of all of them together. Includes every user-facing text of the product, also those whose screens are not
 * built yet.
 */
export const en = {
  common: {
    loading: 'Loading…',
    retry: 'Try again',
    reload: 'Reload',
    reloadIn: 'Reload available in {{seconds}} s',
    dismiss: 'Dismiss',
    comingSoon: '{{name}} is coming soon.',
    goHome: 'Go to Home page',
    notFound: 'Looks like we lose this page',
    ok: 'OK',
    cancel: 'Cancel',
  },
  price: {
    perMonth: '{{price}} / month',
    perYear: '{{price}} / year',
    regular: ', regular price {{price}}',
  },
  elements: {
    schedule: 'Schedule',
    player: 'Video player',
    checkout: 'Checkout',
    profile: 'Profile',
    app: 'Channel site',
  },
  errors: {
    startup: 'WHOOPS! Apologies! Our service is currently experiencing technical difficulties. Please refresh the page',
    generic: 'Something went wrong. Please try again or contact technical support',
    undefined: 'Undefined error',
    technical: 'Oops! We are currently experiencing technical difficulties',
    network: 'The channel cannot be reached. Check your connection and try again.',
    timeout: 'The channel took too long to answer. Please try again.',
    invalidResponse: 'The channel sent data this page cannot read. Please try again later.',
    noApiKey: 'This channel could not be opened (no access key). Please try again later.',
    config: 'This element is not set up: the page must give a channel key (data-channel-key).',
    unknownChannel: 'This channel could not be found. Please check the channel key.',
    tooManyRequests: 'Too many requests. Please wait a moment and try again.',
    temporaryPassword: 'You signed in with a temporary password. Choose a new password in your profile first.',
    geoBlocked: 'The content is not available in your region',
    badAttribute: 'Ignored {{name}}="{{value}}": {{expected}}.',
    element: 'Something went wrong here.',
    chunk: 'This part could not be loaded. Check your connection and try again.',
    chunkRefused: 'This part was blocked: its code did not pass a security check. Please try again later.',
  },
  schedule: {
    label: 'Events',
    titles: { live: 'Live now', upcoming: 'Upcoming events', vod: 'On demand', all: 'All events' },
    empty: {
      live: 'No events are live right now.',
      upcoming: 'No upcoming events are scheduled.',
      vod: 'No recorded events yet.',
      all: 'No events yet.',
      filtered: 'No events match these filters.',
      day: 'No events on {{date}}.',
    },
    loading: 'Loading events…',
    loadError: 'The events could not be loaded.',
    more: 'Show more events',
    loadingMore: 'Loading more events…',
    count_one: '{{count}} event',
    count_other: '{{count}} events',
    versus: '{{away}} @ {{home}}',
    venueTime: '{{time}} at the venue',
    watch: 'Watch',
    watchReplay: 'Watch replay',
    details: 'Details',
    startsIn: 'Starts {{when}}',
    columns: { event: 'Event', date: 'Date', time: 'Time', status: 'Status', access: 'Access', actions: 'Actions' },
    badges: {
      live: 'Live',
      upcoming: 'Upcoming',
      finished: 'On demand',
      free: 'Free',
      paid: 'Paid',
      register: 'Free with sign-up',
      ppv: 'Pay-per-view',
      purchased: 'Purchased',
    },
    favourite: {
      add: 'Add {{name}} to favourites',
      remove: 'Remove {{name}} from favourites',
      login: 'Please log in to start favouriting',
      following: 'Following {{name}}: change favourites',
      title: 'Follow',
      kinds: { participant: 'Team', group: 'School', category: 'Sport' },
      nothing: 'There is no team or sport to follow for this event.',
      saveError: 'Your favourites could not be changed. Please try again.',
    },
    favourites: {
      title: '{{title}}: your favourites',
      signIn: "Sign in to see your favourites' events",
      signInButton: 'Sign in',
      none: 'You have no favourites yet. Follow teams, schools or sports with the star of any event.',
      empty: 'None of your favourites has events here.',
    },
  },
} as const;

/** A tree of the same keys with string leaves: the type `fr` must satisfy. */
export type Translation<T = typeof en> = { -readonly [K in keyof T]: T[K] extends string ? string : Translation<T[K]> };
