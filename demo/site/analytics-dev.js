// The analytics dev page (analytics.html): a channel's numbers as the reference server's analytics service has them
// (GET /__dev/analytics): sessions, page views, sign-ins, API request timings per endpoint, video views per event,
// tag-manager events, and sales and viewers per partner. Refreshes every 3 s while the page is visible. External file: the demo CSP forbids inline
// script.
//
// Like the outbox, the dev endpoints answer only with this start's dev secret (dev-secret.js takes it from the
// address the server prints, `analytics.html#dev-secret=…`).
(function () {
  var root = document.getElementById('analytics');
  var base = root.getAttribute('data-api') + '/__dev/analytics';
  var channel = document.getElementById('analytics-channel');
  var statusEl = document.getElementById('analytics-status');
  var tables = document.getElementById('analytics-tables');
  var shown = '';

  var secret = window.channelDevSecret.take();
  channel.value = new URLSearchParams(location.search).get('channel') || 'demo';

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function time(ms) {
    return new Date(ms).toLocaleTimeString();
  }

  /** A table with a caption, its column headers and rows of cells; an empty line when there are no rows. */
  function table(caption, headers, rows, empty) {
    var section = el('section', 'analytics-section');
    if (!rows.length) {
      section.appendChild(el('h2', null, caption));
      section.appendChild(el('p', 'analytics-empty', empty));
      return section;
    }
    var t = el('table', 'analytics-table');
    t.appendChild(el('caption', null, caption));
    var head = el('thead');
    var tr = el('tr');
    headers.forEach(function (h) {
      var th = el('th', null, h);
      th.scope = 'col';
      tr.appendChild(th);
    });
    head.appendChild(tr);
    t.appendChild(head);
    var body = el('tbody');
    rows.forEach(function (cells) {
      var row = el('tr');
      cells.forEach(function (cell, i) {
        var td = el(i === 0 ? 'th' : 'td', null, cell === null || cell === undefined ? '—' : cell);
        if (i === 0) td.scope = 'row';
        row.appendChild(td);
      });
      body.appendChild(row);
    });
    t.appendChild(body);
    section.appendChild(t);
    return section;
  }

  /** Paid amounts per currency: "USD 29.99", several joined; nothing paid yet: null (shown as a dash). */
  function revenue(amounts) {
    var parts = Object.keys(amounts)
      .sort()
      .map(function (currency) {
        return currency + ' ' + amounts[currency].toFixed(2);
      });
    return parts.length ? parts.join(', ') : null;
  }

  function render(data) {
    var key = JSON.stringify(data);
    if (key === shown) {
      // Unchanged: keep the reader's place; say when it was last checked without re-announcing the numbers.
      return;
    }
    shown = key;
    tables.replaceChildren(
      table(
        'Sessions (' + data.sessions.count + ')',
        ['Started', 'Device', 'Screen', 'Landing page', 'Tracker'],
        data.sessions.recent.map(function (s) {
          return [time(s.at), s.device_type, s.resolution, s.origin_url, s.trk];
        }),
        'No sessions yet.',
      ),
      table(
        'Sales and viewers per partner',
        ['Partner', 'Sessions', 'Page views', 'Video views', 'Orders', 'Paid orders', 'Paid'],
        data.partners.map(function (p) {
          return [
            p.partner === null ? 'No partner (direct)' : p.partner,
            p.sessions,
            p.page_views,
            p.video_views,
            p.orders,
            p.paid,
            revenue(p.revenue),
          ];
        }),
        'Nothing sold or viewed yet.',
      ),
      table(
        'Page views by page (' + data.page_views.count + ')',
        ['Page', 'Views'],
        data.page_views.by_page.map(function (p) {
          return [p.page, p.count];
        }),
        'No page views yet.',
      ),
      table(
        'Latest page views',
        ['Page', 'Previous page', 'Title', 'At', 'User'],
        data.page_views.recent.map(function (v) {
          return [v.page, v.previous_page, v.title, time(v.at), v.user_id];
        }),
        'No page views yet.',
      ),
      table(
        'Sign-ins by method (' + data.logins.count + ')',
        ['Method', 'Sign-ins'],
        data.logins.by_method.map(function (l) {
          return [l.method, l.count];
        }),
        'No sign-ins yet.',
      ),
      table(
        'API requests per endpoint (' + data.api.calls + ' calls)',
        ['Endpoint', 'Method', 'Calls', 'Errors', 'Median (ms)', '95th percentile (ms)'],
        data.api.by_service.map(function (a) {
          return [a.service, a.method, a.count, a.errors, a.median_ms, a.p95_ms];
        }),
        'No API requests reported yet (the tracker sends every 15 s and when a page is left).',
      ),
      table(
        'Video views per event',
        ['Stream', 'Title', 'Category', 'Views', 'Median first frame (ms)', 'Watched (s)'],
        data.videos.map(function (v) {
          return [v.stream_id, v.title, v.category, v.views, v.median_first_frame_ms, v.viewing_seconds];
        }),
        'No video views yet.',
      ),
      table(
        'Tag-manager events' + (data.tag_id ? ' (' + data.tag_id + ')' : ''),
        ['Event', 'Count'],
        data.tag_manager.map(function (t) {
          return [t.name, t.count];
        }),
        data.tag_id ? 'No tag-manager events yet.' : 'This channel has no tag manager.',
      ),
    );
    statusEl.textContent =
      'Channel ' + data.channel_key + ': ' + data.stored.records + ' records kept. Updated ' + time(Date.now()) + '.';
  }

  function locked() {
    statusEl.textContent =
      'This page is locked: open the analytics link the reference server printed when it started ' +
      '(npm start, dev mode). It carries this start\u2019s dev secret.';
  }

  function refresh() {
    if (!secret) return locked();
    fetch(base + '?channel_key=' + encodeURIComponent(channel.value), { headers: { 'X-Channel-Dev-Secret': secret } })
      .then(function (res) {
        if (res.status === 403 || res.status === 404) throw new Error('locked');
        return res.json();
      })
      .then(function (body) {
        render(body.data);
      })
      .catch(function (error) {
        if (error.message === 'locked') {
          secret = '';
          window.channelDevSecret.forget();
          locked();
        } else statusEl.textContent = 'Could not load the numbers: ' + error.message;
      });
  }

  channel.addEventListener('change', function () {
    history.replaceState(null, '', location.pathname + '?channel=' + encodeURIComponent(channel.value));
    shown = '';
    refresh();
  });
  window.addEventListener('hashchange', function () {
    secret = window.channelDevSecret.take();
    refresh();
  });
  setInterval(function () {
    if (document.visibilityState === 'visible') refresh();
  }, 3000);
  refresh();
})();
