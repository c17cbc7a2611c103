// npm run bench: @mux/mux-player playing ?src= (a peer of <channel-player>), autoplaying muted.
import '/vendor/mux-player.mjs';

const player = document.createElement('mux-player');
player.setAttribute('src', new URLSearchParams(location.search).get('src'));
player.setAttribute('stream-type', 'on-demand');
player.setAttribute('autoplay', 'muted');
player.setAttribute('muted', '');
document.getElementById('stage').appendChild(player);
