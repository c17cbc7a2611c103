// The player demo page: a case picker, language and layout switches, and demo sign-in with the seed accounts
// (rather than through `<channel-profile>`, this page signs in through the API, stores the token where the
// session looks for it, then reloads).
(function () {
  var player = document.getElementById('player');
  var log = document.getElementById('event-log');
  var api = location.origin + '/api';
  // [label, attribute, fixture key of the event (see demoEvents) or library item id]
  var CASES = [
    ['Free, live', 'event', 'free-live'],
    ['Free, on demand', 'event', 'free-finished'],
    ['Register only, live', 'event', 'register-live'],
    ['Paid, live', 'event', 'paid-live'],
    ['Paid, live (hockey)', 'event', 'paid-live-category'],
    ['Pay-per-view, live', 'event', 'ppv-live'],
    ['Upcoming (countdown)', 'event', 'countdown'],
    ['Finished, no recording', 'event', 'no-recording'],
    ['Geo-blocked', 'event', 'geo-blocked'],
    ['Library item, free', 'vod', 1],
    ['Library item, paid', 'vod', 2],
  ];

  function stored(key) {
    try {
      var e = JSON.parse(localStorage.getItem('rudy_' + key));
      return e && e.v;
    } catch (err) {
      return undefined;
    }
  }
  function apiKey() {
    return fetch(api + '/get_api_key', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ channel_key: 'demo' }),
    })
      .then(function (r) {
        return r.json();
      })
      .then(function (b) {
        return b.data.api_key;
      });
  }

  var nav = document.getElementById('player-cases');
  var ids = window.demoEvents('demo');
  CASES.forEach(function (c) {
    var id = c[1] === 'vod' ? c[2] : ids[c[2]];
    if (!id) return;
    var b = document.createElement('button');
    b.type = 'button';
    b.textContent = c[0];
    b.addEventListener('click', function () {
      player.removeAttribute(c[1] === 'vod' ? 'event-id' : 'vod-id');
      player.setAttribute(c[1] === 'vod' ? 'vod-id' : 'event-id', String(id));
    });
    nav.appendChild(b);
  });

  document.getElementById('player-lang').addEventListener('change', function (e) {
    player.setAttribute('lang', e.target.value);
  });
  document.getElementById('player-embed').addEventListener('change', function (e) {
    if (e.target.checked) player.setAttribute('embed', '');
    else player.removeAttribute('embed');
  });
  document.getElementById('player-mse').addEventListener('change', function (e) {
    if (e.target.checked) player.setAttribute('prefer-playback', 'mse');
    else player.removeAttribute('prefer-playback');
  });

  function signIn(email, password) {
    apiKey()
      .then(function (key) {
        return fetch(api + '/v2/auth/login', {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ api_key: key, email: email, password: password || 'demo-password' }),
        });
      })
      .then(function (r) {
        return r.json();
      })
      .then(function (b) {
        if (!b.data || !b.data.token) throw new Error(b.message || 'sign-in failed');
        localStorage.setItem('rudy_token.demo', JSON.stringify({ v: b.data.token, e: Date.now() + 31104e6 }));
        location.reload();
      })
      .catch(function (err) {
        log.textContent = String(err.message || err);
      });
  }
  document.getElementById('sign-in-buyer').addEventListener('click', function () {
    signIn('buyer@demo-sports.example');
  });
  document.getElementById('sign-in-subscriber').addEventListener('click', function () {
    signIn('subscriber@demo-sports.example');
  });
  document.getElementById('sign-in-fan').addEventListener('click', function () {
    signIn('fan@example.com', 'fan-pass-1');
  });
  document.getElementById('sign-out').addEventListener('click', function () {
    localStorage.removeItem('rudy_token.demo');
    location.reload();
  });
  document.getElementById('player-account').textContent = stored('token.demo') ? 'Signed in (demo).' : 'Signed out.';

  ['channel-login-request', 'channel-purchase-request'].forEach(function (name) {
    document.addEventListener(name, function (e) {
      log.textContent = name + ': ' + JSON.stringify(e.detail);
    });
  });
})();
