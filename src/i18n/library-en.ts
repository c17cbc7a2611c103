/**
 * English texts of the video-on-demand library (`<channel-schedule kind="library">`, the site's /vod_library and
 * /watch_library pages): the `library` namespace, loaded only by what shows the library.
 */
export const libraryEn = {
  title: 'Video library',
  loading: 'Loading the library…',
  loadError: 'The library could not be loaded.',
  empty: 'The library has no videos yet.',
  more: 'Show more',
  loadingMore: 'Loading more…',
  search: {
    label: 'Search videos',
    placeholder: 'Search by title',
    searching: 'Searching…',
    results_one: '{{count}} video found',
    results_other: '{{count}} videos found',
    title: 'Results for “{{query}}”',
    empty: 'No videos match “{{query}}”',
    error: 'The search failed.',
  },
  categories: {
    unknown: 'We could not find the category “{{name}}”: here is the whole library.',
    label: 'Categories',
    all: 'All',
    error: 'The categories could not be loaded.',
    empty: 'This category has no videos yet.',
    itemsError: 'This category could not be loaded.',
    count_one: '{{count}} video',
    count_other: '{{count}} videos',
  },
  rail: {
    carousel: 'carousel',
    previous: 'Previous videos in {{title}}',
    next: 'Next videos in {{title}}',
    pause: 'Stop scrolling {{title}}',
    play: 'Scroll {{title}} by itself',
    moreIn: 'More in {{category}}',
  },
  card: {
    locked: {
      'sign-in': 'Sign in to watch',
      membership: 'Subscribers and VOD members',
      account: 'Not available to your account',
    },
  },
  watch: {
    clip: 'Clip',
    category: 'Category',
    date: 'Date',
    duration: 'Length',
    back: 'Back to the library',
  },
};
