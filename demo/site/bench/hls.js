// npm run bench: the least a page can do to play ?src= with hls.js light (the peer of <channel-player>).
import Hls from '/vendor/hls.light.mjs';

const src = new URLSearchParams(location.search).get('src');
const video = document.getElementById('video');
const hls = new Hls();
hls.loadSource(src);
hls.attachMedia(video);
hls.on(Hls.Events.MANIFEST_PARSED, () => video.play().catch(() => {}));
