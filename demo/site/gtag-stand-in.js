/*
 * A local stand-in for Google's tag manager script (https://www.googletagmanager.com/gtag/js?id=…), which the demo
 * and the tests cannot reach. The reference server names it in the channel settings as `gtag_url`
 * (`{server}/gtag-stand-in.js?id={google-analytics}`) when the channel has a 'google-analytics' tag id.
 *
 * Like gtag.js it works off `window.dataLayer`: a page defines `function gtag(){dataLayer.push(arguments)}` (this
 * script defines that `gtag` too, when the page has none) and pushes commands before or after the script loads.
 * Each push, earlier ones included, is recorded by POSTing `{ command, name, params, tag_id, page }` to
 * `/gtag-stand-in/collect` on the server this script came from (GET /__dev/gtag lists them, DELETE clears), as text/plain so no
 * preflight is needed, one after another in push order. An event's `event_callback` is called once it is recorded,
 * as gtag.js calls it once sent.
 * `page` is the page's origin and path, never its query. Plain script: no modules, no eval (the demo CSP applies).
 */
(function () {
  'use strict';

  var script = document.currentScript;
  var source = new URL(script && script.src ? script.src : window.location.href);
  var endpoint = new URL('/gtag-stand-in/collect', source).href;
  var tagId = source.searchParams.get('id');
  var dataLayer = (window.dataLayer = window.dataLayer || []);
  if (dataLayer.standIn) return; // loaded twice: the first copy records already

  if (typeof window.gtag !== 'function') {
    window.gtag = function gtag() {
      dataLayer.push(arguments);
    };
  }

  /** A pushed entry as recorded: gtag's `arguments` become command, name and params; anything else is a push. */
  function describe(entry) {
    var args =
      entry && typeof entry === 'object' && typeof entry.length === 'number' && !Array.isArray(entry)
        ? Array.prototype.slice.call(entry)
        : null;
    if (args && typeof args[0] === 'string') {
      var name = args[1] instanceof Date ? args[1].toISOString() : args[1];
      return {
        command: args[0],
        name: name === undefined ? null : name,
        params: args[2] === undefined ? null : args[2],
      };
    }
    return { command: 'push', name: null, params: entry };
  }

  // Posted one after another, so the server records pushes in the order they were made.
  var queue = Promise.resolve();

  function record(entry) {
    var item = describe(entry);
    var body = JSON.stringify({
      command: item.command,
      name: item.name,
      params: item.params,
      tag_id: tagId,
      page: window.location.origin + window.location.pathname,
    });
    var callback = item.params && typeof item.params.event_callback === 'function' ? item.params.event_callback : null;
    var done = function () {
      if (callback) callback();
    };
    queue = queue.then(function () {
      return fetch(endpoint, {
        method: 'POST',
        headers: { 'Content-Type': 'text/plain' },
        body: body,
        keepalive: true,
        credentials: 'omit',
      }).then(done, done);
    });
  }

  dataLayer.forEach(record);
  var push = dataLayer.push;
  dataLayer.push = function () {
    for (var i = 0; i < arguments.length; i++) record(arguments[i]);
    return push.apply(dataLayer, arguments);
  };
  dataLayer.standIn = true;
})();
