// The media element demo: builds <media-controller> around <channel-player slot="media"> (or, with ?plain, the
// player alone) for ?event=ID, ?vod=ID or the free recording, and logs the media events heard from the element.
(function () {
  var params = new URLSearchParams(location.search);
  var stage = document.getElementById('media-stage');
  var log = document.getElementById('media-log');
  var player = document.createElement('channel-player');
  if (params.get('vod')) player.setAttribute('vod-id', params.get('vod'));
  else player.setAttribute('event-id', params.get('event') || String(window.demoEvents('demo')['free-finished'] || ''));
  player.setAttribute('muted', '');
  if (params.has('plain')) {
    stage.appendChild(player);
  } else {
    player.setAttribute('embed', '');
    player.slot = 'media';
    var controller = document.createElement('media-controller');
    controller.className = 'media-chrome';
    controller.appendChild(player);
    var bar = document.createElement('media-control-bar');
    [
      'media-play-button',
      'media-seek-backward-button',
      'media-seek-forward-button',
      'media-mute-button',
      'media-volume-range',
      'media-time-range',
      'media-time-display',
      'media-playback-rate-button',
      'media-fullscreen-button',
    ].forEach(function (name) {
      var control = document.createElement(name);
      if (name === 'media-time-display') control.setAttribute('showduration', '');
      bar.appendChild(control);
    });
    controller.appendChild(bar);
    stage.appendChild(controller);
  }
  var counts = {};
  [
    'play',
    'pause',
    'playing',
    'waiting',
    'seeking',
    'seeked',
    'ended',
    'error',
    'loadedmetadata',
    'durationchange',
    'volumechange',
    'ratechange',
    'timeupdate',
    'progress',
    'channel-ad-start',
    'channel-ad-end',
  ].forEach(function (name) {
    player.addEventListener(name, function () {
      counts[name] = (counts[name] || 0) + 1;
      log.textContent = Object.keys(counts)
        .map(function (k) {
          return k + ' ' + counts[k];
        })
        .join(', ');
    });
  });
})();
