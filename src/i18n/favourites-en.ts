/**
 * English texts of the profile's favourites panel (`favourites.*` of the `translation` namespace). They travel with
 * the panel's code, not in the shared chunk every page loads first: FavouritesPanel.tsx adds them to the texts as it
 * is evaluated, before it renders. French keeps them in fr.ts, fetched whole.
 */
export const favouritesEn = {
  loading: 'Loading your favourites…',
  loadError: 'Your favourites could not be loaded.',
  signedOut: 'Sign in to see your favourites.',
  kinds: {
    participant: 'Teams',
    participant_group: 'Schools',
    event_category: 'Sports',
    favorite_event: 'Favourite events',
    event_location: 'Event locations',
  },
  empty: {
    participant: 'You follow no team yet.',
    participant_group: 'You follow no school yet.',
    event_category: 'You follow no sport yet.',
    favorite_event: 'No events of your teams, schools or sports yet.',
    event_location: 'No venues of your favourite events yet.',
  },
  derived: 'These follow from your teams, schools and sports.',
  remove: 'Remove',
  removeLabel: 'Remove {{name}} from favourites',
  removed: '{{name}} was removed from your favourites.',
  removeError: '{{name}} could not be removed. Please try again.',
  add: 'Add',
  addLabel: { participant: 'Add a team', participant_group: 'Add a school', event_category: 'Add a sport' },
  choose: 'Choose…',
  added: '{{name}} was added to your favourites.',
  addError: 'The favourite could not be added. Please try again.',
  catalogError: 'The list to choose from could not be loaded.',
} as const;
