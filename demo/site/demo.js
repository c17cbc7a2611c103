// Demo helpers (external: the demo pages run under a strict Content-Security-Policy with no inline script).
(function () {
  // The CMS page lives on the second port (another origin) to prove cross-origin embedding.
  var cmsOrigin = location.port
    ? location.protocol + '//' + location.hostname + ':' + (Number(location.port) + 1)
    : undefined;
  var cms = document.getElementById('cms-link');
  if (cms && cmsOrigin) cms.href = cmsOrigin + '/cms.html';
  var cmsSite = document.getElementById('cms-site-link');
  if (cmsSite && cmsOrigin) cmsSite.href = cmsOrigin + '/site/';
  ['react', 'vue'].forEach(function (name) {
    var link = document.getElementById('cms-' + name + '-link');
    if (link && cmsOrigin) link.href = cmsOrigin + '/hosts/' + name + '/';
  });
  var cmsConsent = document.getElementById('cms-consent-link');
  if (cmsConsent && cmsOrigin) cmsConsent.href = cmsOrigin + '/consent.html';
  var cmsPartner = document.getElementById('cms-partner-link');
  if (cmsPartner && cmsOrigin) cmsPartner.href = cmsOrigin + '/partner.html';

  // Show what the schedule fires; on the schedule page, the "intercept" schedule cancels navigation.
  var log = document.getElementById('event-log');
  document.addEventListener('channel-event-select', function (e) {
    var intercept = e.target && e.target.id === 'intercepted';
    if (intercept) e.preventDefault();
    if (log)
      log.textContent =
        'channel-event-select: event ' + e.detail.id + (intercept ? ' (navigation cancelled by the host page)' : '');
  });

  // The dynamic page adds a schedule from script, after load.
  var add = document.getElementById('add-schedule');
  if (add)
    add.addEventListener('click', function () {
      var el = document.createElement('channel-schedule');
      el.setAttribute('kind', 'live');
      document.getElementById('slot').appendChild(el);
    });

  // The French page's player shows demo-fr's free live event.
  var frPlayer = document.getElementById('fr-player');
  var frLive = frPlayer && window.demoEvents('demo-fr')['free-live'];
  if (frLive) frPlayer.setAttribute('event-id', String(frLive));
})();
