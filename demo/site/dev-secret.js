// The dev secret of the demo's developer pages (outbox.html, analytics.html). The dev endpoints answer only with
// this start's secret in the X-Channel-Dev-Secret header; the server prints each page's address with the secret in
// the fragment (`…#dev-secret=…`): a fragment never reaches a server, a log or a Referer. A page keeps it for this
// tab only (sessionStorage: other pages of the origin, and later tabs, never see it) and takes it out of the
// address. External file: the demo CSP forbids inline script.
(function () {
  var STORE = 'channel-dev-secret';

  /** The secret from the address (kept, then removed from it), else the one this tab kept; '' without one. */
  function take() {
    var fromHash = /^#dev-secret=([0-9a-f]+)$/.exec(location.hash);
    try {
      if (fromHash) sessionStorage.setItem(STORE, fromHash[1]);
      if (fromHash) history.replaceState(null, '', location.pathname + location.search);
      return sessionStorage.getItem(STORE) || '';
    } catch (err) {
      return fromHash ? fromHash[1] : '';
    }
  }

  /** Forgets a secret the server refused (a restart made a new one). */
  function forget() {
    try {
      sessionStorage.removeItem(STORE);
    } catch (err) {
      /* storage off: nothing kept */
    }
  }

  window.channelDevSecret = { take: take, forget: forget };
})();
