// npm run bench: one <channel-player> for the event named in ?event=, autoplaying muted.
(function () {
  var id = new URLSearchParams(location.search).get('event') || '1';
  var player = document.createElement('channel-player');
  player.setAttribute('event-id', id);
  player.setAttribute('autoplay', '');
  player.setAttribute('muted', '');
  player.setAttribute('embed', '');
  document.getElementById('stage').appendChild(player);
})();
