// A host's own component (as Lit, Stencil or plain web components do): it renders into an open shadow root, where
// it puts one of our tags, at once or (data-later) a moment after it is connected.
(function () {
  class HostCard extends HTMLElement {
    connectedCallback() {
      if (this.shadowRoot) return;
      var root = this.attachShadow({ mode: 'open' });
      var tag = this.getAttribute('data-tag');
      var render = function () {
        var inner = document.createElement('section');
        var el = document.createElement(tag);
        if (tag === 'channel-schedule') {
          el.setAttribute('kind', 'live');
          el.setAttribute('limit', '3');
        }
        inner.appendChild(el);
        root.appendChild(inner);
      };
      if (this.hasAttribute('data-later')) setTimeout(render, 300);
      else render();
    }
  }
  customElements.define('host-card', HostCard);
})();
