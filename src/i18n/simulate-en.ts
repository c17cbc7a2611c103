/**
 * English texts of the site's device check (`site:simulate.*`): they travel with its page's code
 * (components/app/pages/Simulate.tsx, which adds them as it is evaluated), not in the site's texts its first render
 * waits for. French keeps them in site-fr.ts, fetched whole.
 */
export const simulateEn = {
  simulate: {
    intro: 'Before you buy, check that this device and browser can play our streams.',
    checked: 'What we checked',
    again: 'Check again',
    verdict: { pass: 'OK', warn: 'Note', fail: 'Problem' },
    summary: {
      pass: 'This device can watch our streams.',
      warn: 'This device can watch our streams. The notes below tell you how to get the most out of it.',
      fail: 'This device cannot watch our streams yet. Fix the problems below, then check again.',
    },
    video: {
      label: 'Video playback',
      native: 'This browser plays our streams (HLS) by itself.',
      mse: 'This browser plays our streams through Media Source Extensions.',
      fail: 'This browser cannot play our streams. Use a recent Chrome, Edge, Firefox or Safari.',
    },
    storage: {
      label: 'Local storage',
      pass: 'Local storage works, so you can sign in and stay signed in.',
      fail: 'Local storage is blocked, so signing in will not work. Allow site data for this site or leave private browsing.',
    },
    cookies: {
      label: 'Cookies',
      pass: 'Cookies are enabled.',
      warn: 'Cookies are blocked. Card payments and sign-in with Google or Facebook may need them.',
    },
    screen: {
      label: 'Screen',
      pass: '{{width}} × {{height}} pixels: room for video in high definition.',
      warn: '{{width}} × {{height}} pixels: video plays, and a larger screen shows more of it.',
    },
    timeZone: {
      label: 'Time zone',
      pass: 'Event times are shown for your time zone, {{zone}}.',
      warn: 'This browser does not tell us its time zone, so event times may not match your clock.',
    },
    language: {
      label: 'Language',
      pass: 'Your browser prefers {{language}}; this site speaks English and French.',
      warn: 'Your browser prefers {{language}}; this site speaks English and French only.',
    },
  },
} as const;
