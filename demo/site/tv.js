// The demo "TV app" (tv.html): gets a device code, shows it, polls every 2 s until a signed-in viewer links it in
// <channel-profile section="devices">. External file: demo pages run under a CSP without inline script.
// The TV's own token (handed over once, when linked) stays in this page's memory and is never logged or shown.
(function () {
  function $(id) {
    return document.getElementById(id);
  }
  var root = $('tv');
  var api = root.getAttribute('data-api') + '/api/';
  var channelKey = root.getAttribute('data-channel-key');
  var codeEl = $('tv-code'),
    expiryEl = $('tv-expiry'),
    statusEl = $('tv-status');
  var apiKey = null;
  var token = null;
  var run = 0; // bumped by every new code, so answers for an older code are ignored
  var pollTimer = 0;
  var tickTimer = 0;

  /** Fetches JSON; rejects with the server's message (and status) for non-2xx answers. */
  function call(path, init) {
    return fetch(api + path, init).then(function (res) {
      return res.json().then(function (body) {
        if (res.ok) return body;
        var error = new Error(body.message || 'HTTP ' + res.status);
        error.status = res.status;
        error.body = body;
        throw error;
      });
    });
  }

  function post(path, body) {
    return call(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  }

  /** The api key this TV uses (a fresh one when the stored one is refused). */
  function key(fresh) {
    if (apiKey && !fresh) return Promise.resolve(apiKey);
    return post('get_api_key', { channel_key: channelKey }).then(function (body) {
      apiKey = body.data.api_key;
      return apiKey;
    });
  }

  function stop() {
    clearTimeout(pollTimer);
    clearInterval(tickTimer);
  }

  function status(text) {
    statusEl.textContent = text;
  }

  function newCode(retried) {
    stop();
    var mine = ++run;
    token = null;
    root.classList.remove('tv-linked', 'tv-expired');
    codeEl.textContent = '······';
    expiryEl.textContent = '';
    status('Getting a code…');
    key(retried === true)
      .then(function (k) {
        return post('auth/device-code', { api_key: k });
      })
      .then(function (body) {
        if (mine !== run) return;
        var expiresAt = Date.now() + body.data.expires_in * 1000;
        codeEl.textContent = body.data.code;
        codeEl.setAttribute('aria-label', 'Code ' + body.data.code.split('').join(' '));
        status('Waiting for the code to be entered…');
        tick(expiresAt);
        tickTimer = setInterval(function () {
          tick(expiresAt);
        }, 1000);
        poll(mine, body.data.code);
      })
      .catch(function (error) {
        if (mine !== run) return;
        // A stored api key from before a server reset: get a new one, once.
        if (!retried && error.body && error.body.errors && error.body.errors.api_key) return newCode(true);
        status(error.message);
      });
  }

  function tick(expiresAt) {
    var left = Math.max(0, Math.round((expiresAt - Date.now()) / 1000));
    expiryEl.textContent =
      left > 0 ? 'The code expires in ' + Math.floor(left / 60) + ':' + String(left % 60).padStart(2, '0') + '.' : '';
    if (left === 0) expired();
  }

  function expired() {
    stop();
    root.classList.add('tv-expired');
    expiryEl.textContent = '';
    status('This code has expired. Press "New code" to get another one.');
  }

  function poll(mine, code) {
    pollTimer = setTimeout(function () {
      call('auth/device-code/' + encodeURIComponent(code) + '?api_key=' + encodeURIComponent(apiKey))
        .then(function (body) {
          if (mine !== run) return;
          if (body.data.status === 'linked') return linked(body.data);
          if (body.data.status === 'expired') return expired();
          poll(mine, code);
        })
        .catch(function (error) {
          if (mine !== run) return;
          if (error.status === 404) return expired();
          status('Could not reach the server (' + error.message + '); trying again…');
          poll(mine, code);
        });
    }, 2000);
  }

  function linked(data) {
    stop();
    if (data.token) token = data.token;
    root.classList.add('tv-linked');
    expiryEl.textContent = '';
    status('Linked to ' + data.email + '.');
    if (!token) return;
    // The TV is now signed in as that viewer: its own token reads the profile like any signed-in client.
    call('profile?api_key=' + encodeURIComponent(apiKey), { headers: { Authorization: 'Bearer ' + token } })
      .then(function (body) {
        var name = [body.data.first_name, body.data.last_name].filter(Boolean).join(' ');
        status('Linked to ' + data.email + '. This TV is signed in' + (name ? ' as ' + name : '') + '.');
      })
      .catch(function () {
        /* the link itself worked; the status already says so */
      });
  }

  $('tv-new-code').addEventListener('click', function () {
    newCode(false);
  });
  newCode(false);
})();
