// Fixture keys of the seeded events to their ids, per channel (`window.demoEvents('demo')['paid-live']`): the
// reference server writes them into the page's <meta name="demo-events" content="%DEMO_EVENTS%">, so the demo pages
// need no dev endpoint and work on the CMS host too. External file: the demo CSP forbids inline script.
(function () {
  var all;
  window.demoEvents = function (channel) {
    if (!all) {
      var meta = document.querySelector('meta[name="demo-events"]');
      try {
        all = JSON.parse(meta ? meta.content : '{}');
      } catch (err) {
        all = {};
      }
    }
    return all[channel] || {};
  };
})();
