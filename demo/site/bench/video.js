// npm run bench: the physical floor: a <video> given ?src= directly (the browser's own HLS engine), no library.
(function () {
  var video = document.getElementById('video');
  video.src = new URLSearchParams(location.search).get('src');
  video.play().catch(function () {});
})();
