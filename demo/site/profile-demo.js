// The profile demo page: section and language switches, a log of the element's public events, and a player of a
// paid event (its id comes from the server's fixture keys) that unlocks when a subscriber signs in.
(function () {
  var profile = document.getElementById('profile');
  var log = document.getElementById('event-log');
  var section = document.getElementById('profile-section');
  section.addEventListener('change', function () {
    if (section.value) profile.setAttribute('section', section.value);
    else profile.removeAttribute('section');
  });
  document.getElementById('profile-lang').addEventListener('change', function (e) {
    profile.setAttribute('lang', e.target.value);
  });

  ['channel-login', 'channel-logout', 'channel-login-request'].forEach(function (name) {
    document.addEventListener(name, function (e) {
      log.textContent = name + ': ' + JSON.stringify(e.detail || {});
    });
  });

  var id = window.demoEvents('demo')['paid-live'];
  if (id) document.getElementById('subscriber-player').setAttribute('event-id', String(id));
})();
