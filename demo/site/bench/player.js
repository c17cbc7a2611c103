// npm run bench: one <channel-player> for the event in ?event=, autoplaying muted (player-<channel>.html pages
// load the bundle with their channel's key, the way a host page embeds it).
(function () {
  var query = new URLSearchParams(location.search);
  var player = document.createElement('channel-player');
  player.setAttribute('event-id', query.get('event') || '1');
  player.setAttribute('autoplay', '');
  player.setAttribute('muted', '');
  player.setAttribute('embed', '');
  if (query.get('prefer')) player.setAttribute('prefer-playback', query.get('prefer'));
  if (query.get('lang')) player.setAttribute('lang', query.get('lang'));
  function add() {
    document.getElementById('stage').appendChild(player);
  }
  if (document.getElementById('stage')) add();
  else document.addEventListener('DOMContentLoaded', add);
})();
