// The demo outbox (outbox.html): lists the emails of the reference server's mail queue (GET /__dev/outbox), newest
// first, sent or still waiting, with their links clickable. Refreshes every 3 s while the page is visible. External
// file: the demo CSP forbids inline script.
//
// The dev endpoints answer only with this start's dev secret (dev-secret.js takes it from the address the server
// prints, `outbox.html#dev-secret=…`); after a restart the page asks for the new link.
(function () {
  var root = document.getElementById('outbox');
  var base = root.getAttribute('data-api') + '/__dev/outbox';
  var form = document.getElementById('outbox-filter');
  var to = document.getElementById('outbox-to');
  var list = document.getElementById('outbox-list');
  var statusEl = document.getElementById('outbox-status');
  var shown = '';

  var secret = window.channelDevSecret.take();

  to.value = new URLSearchParams(location.search).get('to') || '';

  function url() {
    return base + (to.value.trim() ? '?to=' + encodeURIComponent(to.value.trim()) : '');
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function render(emails) {
    var key = JSON.stringify(emails);
    if (key === shown) return; // unchanged: keep the reader's place and selection
    shown = key;
    list.replaceChildren();
    statusEl.textContent = emails.length
      ? emails.length + (emails.length === 1 ? ' email' : ' emails')
      : 'No emails yet.';
    emails.forEach(function (email) {
      var item = el('li', 'outbox-email');
      item.appendChild(el('h2', null, email.subject));
      var when = new Date((email.sent_at || email.queued_at) * 1000).toLocaleString();
      var state = email.status === 'sent' ? 'sent' : email.status + ' (' + email.attempts + ' attempts)';
      item.appendChild(
        el('p', 'outbox-meta', 'To ' + email.to + ' · ' + when + ' · ' + state + ' · channel ' + email.channel_key),
      );
      item.appendChild(el('pre', 'outbox-text', email.text));
      if (email.links.length) {
        var links = el('ul', 'outbox-links');
        email.links.forEach(function (href) {
          if (!/^https?:\/\//.test(href)) return;
          var li = el('li');
          var a = el('a', null, href);
          a.href = href;
          li.appendChild(a);
          links.appendChild(li);
        });
        item.appendChild(links);
      }
      list.appendChild(item);
    });
  }

  function call(method) {
    return fetch(url(), { method: method, headers: { 'X-Channel-Dev-Secret': secret } }).then(function (res) {
      if (res.status === 403 || res.status === 404) throw new Error('locked');
      return res.json();
    });
  }

  function locked() {
    statusEl.textContent =
      'The outbox is locked: open the outbox link the reference server printed when it started ' +
      '(npm start, dev mode). It carries this start\u2019s dev secret.';
  }

  function refresh() {
    if (!secret) return Promise.resolve(locked());
    return call('GET')
      .then(function (body) {
        render(body.data);
      })
      .catch(function (error) {
        if (error.message === 'locked') {
          secret = '';
          window.channelDevSecret.forget();
          locked();
        } else statusEl.textContent = 'Could not load the outbox: ' + error.message;
      });
  }

  form.addEventListener('submit', function (event) {
    event.preventDefault();
    var query = to.value.trim() ? '?to=' + encodeURIComponent(to.value.trim()) : '';
    history.replaceState(null, '', location.pathname + query);
    refresh();
  });
  document.getElementById('outbox-clear').addEventListener('click', function () {
    if (secret) call('DELETE').then(refresh, refresh);
  });
  // The printed link opened where the page already is changes only the fragment: take the secret from it then too.
  window.addEventListener('hashchange', function () {
    secret = window.channelDevSecret.take();
    refresh();
  });
  setInterval(function () {
    if (document.visibilityState === 'visible') refresh();
  }, 3000);
  refresh();
})();
