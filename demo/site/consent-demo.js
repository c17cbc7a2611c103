// The consent demo page (consent.html): its banner's buttons give or refuse consent through the product's public
// API, `channelElements.consent(granted)`, which the loader script defines before any element's code arrives.
// External file: the demo CSP forbids inline script.
(function () {
  var status = document.getElementById('consent-status');

  function choose(granted) {
    var api = window.channelElements;
    if (!api || typeof api.consent !== 'function') {
      status.textContent = 'The channel elements script has not loaded yet; try again in a moment.';
      return;
    }
    api.consent(granted);
    status.textContent = granted
      ? 'Analytics accepted: page views and list views are measured from now on.'
      : 'Analytics declined: nothing is measured.';
  }

  document.getElementById('consent-accept').addEventListener('click', function () {
    choose(true);
  });
  document.getElementById('consent-decline').addEventListener('click', function () {
    choose(false);
  });
})();
