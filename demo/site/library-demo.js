// The library demo page: a chosen card plays in the page's own player (the host cancels the card's link).
(function () {
  var player = document.getElementById('library-player');
  var log = document.getElementById('event-log');
  document.getElementById('library').addEventListener('channel-vod-select', function (e) {
    e.preventDefault();
    player.setAttribute('vod-id', String(e.detail.id));
    if (log) log.textContent = 'channel-vod-select: item ' + e.detail.id + ' (plays below; the link was cancelled)';
    player.scrollIntoView({ block: 'nearest' });
  });
})();
