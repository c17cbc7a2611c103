// The checkout demo page: what to sell (from the query, e.g. ?event=paid-live or ?package=1, or the buttons), its
// language (?lang=fr), a
// log of the public events, and a player of the paid live game that unlocks when its order is paid.
(function () {
  var checkout = document.getElementById('checkout');
  var player = document.getElementById('checkout-player');
  var log = document.getElementById('event-log');
  var ATTRIBUTES = ['event-id', 'package-id', 'subscription-id'];
  var ids = window.demoEvents('demo');

  function sell(attribute, value) {
    ATTRIBUTES.forEach(function (name) {
      if (name !== attribute) checkout.removeAttribute(name);
    });
    if (attribute && value) checkout.setAttribute(attribute, String(value));
  }

  function fromQuery() {
    var query = new URLSearchParams(location.search);
    if (query.get('event')) sell('event-id', ids[query.get('event')] || query.get('event'));
    else if (query.get('package')) sell('package-id', query.get('package'));
    else if (query.get('subscription')) sell('subscription-id', query.get('subscription'));
  }

  if (ids['paid-live']) player.setAttribute('event-id', String(ids['paid-live']));
  fromQuery();
  // ?lang=fr: the page in French (the elements and Stripe's card field follow it).
  var lang = new URLSearchParams(location.search).get('lang');
  if (lang === 'fr' || lang === 'en') {
    document.documentElement.lang = lang;
    document
      .querySelectorAll('channel-checkout, channel-profile, channel-player, channel-schedule')
      .forEach(function (el) {
        el.setAttribute('lang', lang);
      });
  }

  document.getElementById('checkout-cases').addEventListener('click', function (e) {
    var b = e.target.closest('button');
    if (!b) return;
    if (b.hasAttribute('data-clear')) sell();
    else if (b.dataset.event) sell('event-id', ids[b.dataset.event]);
    else if (b.dataset.package) sell('package-id', b.dataset.package);
    else if (b.dataset.subscription) sell('subscription-id', b.dataset.subscription);
  });

  [
    'channel-purchase-complete',
    'channel-purchase-request',
    'channel-login',
    'channel-logout',
    'channel-login-request',
  ].forEach(function (name) {
    document.addEventListener(name, function (e) {
      log.textContent = name + ': ' + JSON.stringify(e.detail || {});
    });
  });
})();
