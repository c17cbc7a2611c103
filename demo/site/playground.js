// The demo index's playground: each element with its attributes editable live, its reference beside it and the
// snippets that embed it as configured, for plain HTML, React and Vue. Everything comes from the package's
// custom-elements.json (generated from elements/surface.ts), so the playground never drifts from the elements.
// External file: the demo pages run under a strict Content-Security-Policy with no inline script. Text only goes
// in through textContent.
(function () {
  var root = document.getElementById('playground');
  if (!root) return;
  var tabs = document.getElementById('pg-tabs');
  var controls = document.getElementById('pg-controls');
  var preview = document.getElementById('pg-preview');
  var log = document.getElementById('pg-events');
  var reference = document.getElementById('pg-reference');
  var snippets = {
    html: document.getElementById('pg-html'),
    react: document.getElementById('pg-react'),
    vue: document.getElementById('pg-vue'),
  };
  var origin = location.origin;
  var ids = typeof window.demoEvents === 'function' ? window.demoEvents('demo') : {};

  // Where each element starts, so the preview shows something worth editing. The whole site (<channel-app>) owns
  // the page's address, so it has its own page instead (linked below the playground).
  var STARTS = {
    'channel-schedule': { kind: 'live', limit: '6' },
    'channel-player': { 'event-id': String(ids['free-finished'] || ''), muted: '' },
    'channel-checkout': { 'package-id': '1' },
    'channel-profile': {},
  };

  var declarations = [];
  var current;
  var values = {};

  function el(tag, props, children) {
    var node = document.createElement(tag);
    Object.keys(props || {}).forEach(function (key) {
      if (key === 'text') node.textContent = props[key];
      else if (key === 'className') node.className = props[key];
      else node.setAttribute(key, props[key]);
    });
    (children || []).forEach(function (child) {
      if (child) node.appendChild(child);
    });
    return node;
  }

  /** The quoted literals of a union type ('a' | 'b'), or undefined for any other type. */
  function literals(type) {
    var parts = type.split('|').map(function (p) {
      return p.trim();
    });
    if (
      !parts.every(function (p) {
        return /^'[^']*'$/.test(p);
      })
    )
      return undefined;
    return parts.map(function (p) {
      return p.slice(1, -1);
    });
  }

  function controlFor(attribute) {
    var type = attribute.type.text;
    var id = 'pg-attr-' + attribute.name;
    var value = values[attribute.name];
    var input;
    if (type === 'boolean') {
      input = el('input', { type: 'checkbox', id: id });
      input.checked = value !== undefined;
    } else if (literals(type)) {
      input = el(
        'select',
        { id: id },
        [el('option', { value: '', text: 'not set' })].concat(
          literals(type).map(function (v) {
            return el('option', { value: v, text: v });
          }),
        ),
      );
      input.value = value || '';
    } else {
      input = el('input', { type: type.indexOf('number') >= 0 ? 'number' : 'text', id: id });
      if (type.indexOf('number') >= 0) input.min = '1';
      input.value = value || '';
    }
    input.setAttribute('aria-describedby', 'pg-doc-' + attribute.name);
    input.addEventListener(input.type === 'checkbox' || input.tagName === 'SELECT' ? 'change' : 'input', function () {
      var next = input.type === 'checkbox' ? (input.checked ? '' : undefined) : input.value.trim() || undefined;
      if (next === undefined) delete values[attribute.name];
      else values[attribute.name] = next;
      apply();
    });
    return el('div', { className: 'pg-field' }, [el('label', { for: id, text: attribute.name }), input]);
  }

  /** Sets the live element's attributes to the controls' values and rewrites the snippets. */
  function apply() {
    var live = preview.firstElementChild;
    if (live) {
      current.attributes.forEach(function (a) {
        if (values[a.name] === undefined) live.removeAttribute(a.name);
        else if (live.getAttribute(a.name) !== values[a.name]) live.setAttribute(a.name, values[a.name]);
      });
    }
    writeSnippets();
  }

  function attributeList(format) {
    return current.attributes
      .filter(function (a) {
        return values[a.name] !== undefined;
      })
      .map(function (a) {
        return format(a, values[a.name]);
      });
  }

  function writeSnippets() {
    var tag = current.tagName;
    var event = (current.events || [])[0];
    var html = attributeList(function (a, v) {
      return v === '' ? a.name : a.name + '="' + v.replace(/"/g, '&quot;') + '"';
    });
    snippets.html.textContent =
      '<script src="' +
      origin +
      '/channel-elements.js" data-channel-key="demo" async></script>\n' +
      '<' +
      tag +
      (html.length ? ' ' + html.join(' ') : '') +
      '></' +
      tag +
      '>';
    var jsx = attributeList(function (a, v) {
      if (v === '') return a.name;
      return a.type.text.indexOf('number') >= 0 && /^\d+$/.test(v)
        ? a.name + '={' + v + '}'
        : a.name + '=' + JSON.stringify(v);
    });
    if (event) jsx.push('on' + event.name + '={(e) => console.log(e.detail)}');
    snippets.react.textContent =
      "import { configure } from 'channel-elements';\n" +
      "import type {} from 'channel-elements/react'; // the tags in JSX, typed\n\n" +
      "configure({ channelKey: 'demo', apiUrl: '" +
      origin +
      "/api' });\n\n" +
      'export function Example() {\n' +
      '  return <' +
      tag +
      (jsx.length ? '\n    ' + jsx.join('\n    ') + '\n  ' : ' ') +
      '/>;\n' +
      '}';
    var vue = attributeList(function (a, v) {
      return v === '' ? a.name : a.name + '="' + v.replace(/"/g, '&quot;') + '"';
    });
    if (event) vue.push('@' + event.name + '="(e) => console.log(e.detail)"');
    snippets.vue.textContent =
      "<!-- vite.config: vue({ template: { compilerOptions: { isCustomElement: (t) => t.startsWith('channel-') } } }) -->\n" +
      '<script setup lang="ts">\n' +
      "import { configure } from 'channel-elements';\n" +
      "configure({ channelKey: 'demo', apiUrl: '" +
      origin +
      "/api' });\n" +
      '</script>\n\n' +
      '<template>\n' +
      '  <' +
      tag +
      (vue.length ? '\n    ' + vue.join('\n    ') + '\n  ' : ' ') +
      '/>\n' +
      '</template>';
  }

  function table(caption, head, rows) {
    if (!rows.length) return null;
    return el('table', { className: 'pg-table' }, [
      el('caption', { text: caption }),
      el('thead', {}, [
        el(
          'tr',
          {},
          head.map(function (h) {
            return el('th', { scope: 'col', text: h });
          }),
        ),
      ]),
      el(
        'tbody',
        {},
        rows.map(function (row) {
          return el(
            'tr',
            row.id ? { id: row.id } : {},
            row.cells.map(function (cell, i) {
              return el(i === 0 ? 'th' : 'td', i === 0 ? { scope: 'row' } : {}, [el('code', { text: cell })]);
            }),
          );
        }),
      ),
    ]);
  }

  function writeReference() {
    reference.textContent = '';
    reference.appendChild(el('h3', { text: '<' + current.tagName + '> reference' }));
    reference.appendChild(el('p', { text: current.description || '' }));
    [
      table(
        'Attributes',
        ['attribute', 'type', 'default', 'what it does'],
        current.attributes.map(function (a) {
          return { id: 'pg-doc-' + a.name, cells: [a.name, a.type.text, a.default || '', a.description || ''] };
        }),
      ),
      table(
        'Events',
        ['event', 'detail', 'when'],
        (current.events || []).map(function (e) {
          return { cells: [e.name, e.type ? e.type.text : '', e.description || ''] };
        }),
      ),
      table(
        'Properties and methods',
        ['member', 'type', 'what it does'],
        (current.members || [])
          .filter(function (m) {
            return !m.static && m.privacy !== 'private' && !m.attribute;
          })
          .map(function (m) {
            return {
              cells: [m.name + (m.kind === 'method' ? '()' : ''), m.type ? m.type.text : '', m.description || ''],
            };
          }),
      ),
      table(
        'Slots',
        ['slot', 'what goes in it'],
        (current.slots || []).map(function (s) {
          return { cells: [s.name || '(default)', s.description || ''] };
        }),
      ),
      table(
        'CSS parts',
        ['part', 'what it is'],
        (current.cssParts || []).map(function (p) {
          return { cells: [p.name, p.description || ''] };
        }),
      ),
      table(
        'CSS custom properties',
        ['property', 'what it sets'],
        (current.cssProperties || []).map(function (p) {
          return { cells: [p.name, p.description || ''] };
        }),
      ),
    ].forEach(function (t) {
      if (t) reference.appendChild(t);
    });
  }

  function show(declaration) {
    current = declaration;
    values = Object.assign({}, STARTS[declaration.tagName]);
    Object.keys(values).forEach(function (k) {
      if (values[k] === '' && k !== 'muted') delete values[k];
    });
    [].forEach.call(tabs.children, function (b) {
      b.setAttribute('aria-pressed', String(b.dataset.tag === declaration.tagName));
    });
    controls.textContent = '';
    controls.appendChild(el('legend', { text: 'Attributes of <' + declaration.tagName + '>' }));
    declaration.attributes.forEach(function (a) {
      controls.appendChild(controlFor(a));
    });
    preview.textContent = '';
    var live = document.createElement(declaration.tagName);
    live.id = 'pg-element';
    preview.appendChild(live);
    log.textContent = '';
    (declaration.events || []).forEach(function (e) {
      live.addEventListener(e.name, function (event) {
        // The playground stays on its page: a cancelable event's default (a navigation) is cancelled.
        if (event.cancelable) event.preventDefault();
        var line = e.name + ': ' + JSON.stringify(event.detail === undefined ? null : event.detail);
        log.textContent = line + (event.cancelable ? ' (its navigation cancelled by the playground)' : '');
      });
    });
    writeReference();
    apply();
  }

  document.querySelectorAll('[data-copy]').forEach(function (button) {
    button.addEventListener('click', function () {
      var source = document.getElementById(button.getAttribute('data-copy'));
      var status = document.getElementById(button.getAttribute('data-copy') + '-status');
      var done = function (text) {
        if (status) status.textContent = text;
      };
      if (!navigator.clipboard) return done('Select the text to copy it.');
      navigator.clipboard.writeText(source.textContent).then(
        function () {
          done('Copied.');
        },
        function () {
          done('The browser refused the clipboard: select the text to copy it.');
        },
      );
    });
  });

  fetch('/custom-elements.json')
    .then(function (answer) {
      if (!answer.ok) throw new Error('HTTP ' + answer.status);
      return answer.json();
    })
    .then(function (manifest) {
      manifest.modules.forEach(function (m) {
        (m.declarations || []).forEach(function (d) {
          if (d.customElement && STARTS[d.tagName]) declarations.push(d);
        });
      });
      declarations.forEach(function (d) {
        var button = el('button', { type: 'button', 'data-tag': d.tagName, text: '<' + d.tagName + '>' });
        button.addEventListener('click', function () {
          show(d);
        });
        tabs.appendChild(button);
      });
      if (declarations.length) show(declarations[0]);
    })
    .catch(function (error) {
      root.appendChild(
        el('p', {
          role: 'alert',
          text: 'The playground could not read custom-elements.json (' + error.message + '). Run npm run build.',
        }),
      );
    });
})();
