// The XSS corpus of test/faults/xss.spec.ts, written for this project after the kinds of DOMPurify's test vectors and
// the OWASP XSS filter evasion cheat sheet: event handlers, script and frame tags, `javascript:` and `data:` URLs,
// SVG and MathML tricks, mutation XSS, DOM clobbering and template injection, each as hand-written classics and as
// combinations (tags x handlers x spellings, URL schemes x obfuscations x carriers, wrappers x break-outs).
//
// Every vector calls the detector the spec plants, `__xssHit(n)` with its own number, if it ever runs, so a hit
// names the vector that ran. Not a spec itself (playwright.config.ts runs *.spec.ts only).

/** What a vector tries. */
export type VectorKind =
  'handler' | 'script' | 'url' | 'svg' | 'mathml' | 'mxss' | 'clobbering' | 'template' | 'parser';

/**
 * Where a vector belongs: `html` is markup (for HTML sinks, and text sinks), `url` a bare URL (for the href and src
 * sinks, and text sinks), `template` text that a template engine would evaluate (every sink).
 */
export type VectorShape = 'html' | 'url' | 'template';

/** One vector of the corpus. */
export interface XssVector {
  /** Its number: the argument it passes to `__xssHit`, unique in the corpus. */
  n: number;
  kind: VectorKind;
  shape: VectorShape;
  /** How it was made, for a failure message (`img/onerror x upper case`). */
  label: string;
  text: string;
}

/** The planted detector's name: a page under test defines it, and every vector calls it. */
export const DETECTOR = '__xssHit';

const vectors: XssVector[] = [];

/** Adds a vector; `make` gets the JavaScript to run (`__xssHit(n)`) and the number. */
function add(kind: VectorKind, shape: VectorShape, label: string, make: (js: string, n: number) => string): void {
  const n = vectors.length + 1;
  vectors.push({ n, kind, shape, label, text: make(`${DETECTOR}(${n})`, n) });
}

// ---------------------------------------------------------------- spellings of the JavaScript

/** Every character as a decimal HTML entity (`&#95;&#95;...`), for attribute values the parser decodes. */
const decimalEntities = (s: string) => [...s].map((c) => `&#${c.charCodeAt(0)};`).join('');
/** Hex entities without their semicolons, padded with zeros (`&#x0005f`), as old filters missed. */
const hexEntitiesLoose = (s: string) => [...s].map((c) => `&#x000${c.charCodeAt(0).toString(16)}`).join('');
/** JavaScript's own `\u` escapes for the identifier (valid in an identifier, so the call still parses). */
const unicodeIdentifier = (js: string) => js.replace(DETECTOR, '\\u005f\\u005fxssHit');
/** Percent-encoded, for a `javascript:` URL, whose body is percent-decoded before it runs. */
const percentEncoded = (s: string) => [...s].map((c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('');
/** The call looked up by a computed name, so no filter sees the detector's name whole. */
const computedCall = (n: number) => `top['__xss'+'Hit'](${n})`;
/** The call through a string that JavaScript decodes (`eval` of hex escapes). */
const hexString = (js: string) =>
  `eval('${[...js].map((c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`).join('')}')`;

// ---------------------------------------------------------------- hand-written classics

const classics: [VectorKind, string, (js: string, n: number) => string][] = [
  ['script', 'script tag', (js) => `<script>${js}</script>`],
  ['script', 'script src data', (js) => `<script src="data:text/javascript,${js}"></script>`],
  ['script', 'script in upper case with a space', (js) => `<SCRIPT >${js}</SCRIPT >`],
  ['script', 'script split by a null tag', (js) => `<scr<script>ipt>${js}</scr</script>ipt>`],
  ['script', 'script without its end', (js) => `<script>${js}//`],
  ['script', 'script type module', (js) => `<script type="module">${js}</script>`],
  ['handler', 'img onerror', (js) => `<img src=x onerror=${js}>`],
  ['handler', 'image (alias of img) onerror', (js) => `<image src=x onerror=${js}>`],
  ['handler', 'body onload', (js) => `<body onload=${js}>`],
  ['handler', 'body onpageshow', (js) => `<body onpageshow="${js}">`],
  ['handler', 'input autofocus onfocus', (js) => `<input autofocus onfocus=${js}>`],
  ['handler', 'details open ontoggle', (js) => `<details open ontoggle="${js}"><summary>x</summary></details>`],
  ['handler', 'video source onerror', (js) => `<video><source onerror="${js}"></video>`],
  ['handler', 'audio src onerror', (js) => `<audio src=x onerror=${js}>`],
  ['handler', 'marquee onstart', (js) => `<marquee onstart=${js}>x</marquee>`],
  ['handler', 'style onload', (js) => `<style onload=${js}></style>`],
  ['handler', 'iframe onload', (js) => `<iframe onload=${js}></iframe>`],
  ['handler', 'object onerror', (js) => `<object data=x onerror=${js}></object>`],
  ['handler', 'anchor focus by fragment', (js) => `<a id=f tabindex=1 onfocus=${js} autofocus>x</a>`],
  [
    'handler',
    'div onmouseover with a covering style',
    (js) => `<div style="position:fixed;inset:0" onmouseover=${js}>x</div>`,
  ],
  ['handler', 'onclick on plain text', (js) => `<b onclick=${js}>press</b>`],
  [
    'handler',
    'animation start by keyframes',
    (js) => `<style>@keyframes x{}</style><p style="animation-name:x" onanimationstart=${js}>x</p>`,
  ],
  ['handler', 'transition end', (js) => `<p style="transition:color 1ms" ontransitionend=${js} id=t>x</p>`],
  ['handler', 'select autofocus onfocus', (js) => `<select autofocus onfocus=${js}></select>`],
  ['handler', 'textarea autofocus onfocus', (js) => `<textarea autofocus onfocus=${js}></textarea>`],
  ['handler', 'keygen (obsolete) autofocus', (js) => `<keygen autofocus onfocus=${js}>`],
  ['handler', 'contenteditable autofocus', (js) => `<p contenteditable autofocus onfocus=${js}>x</p>`],
  ['handler', 'popover toggle', (js) => `<p popover id=p onbeforetoggle=${js}>x</p><button popovertarget=p>x</button>`],
  [
    'handler',
    'onscrollend on an overflowing box',
    (js) => `<div style="overflow:auto;height:1px" onscrollend=${js}><br><br></div>`,
  ],
  ['handler', 'unquoted handler with a slash', (js) => `<img src=x onerror=${js}//>`],
  ['handler', 'svg onload in a p', (js) => `<p><svg onload=${js}></p>`],
  ['handler', 'handler after a fake closed attribute', (js) => `<img src="x" alt="a" "onerror=${js}">`],
  ['url', 'anchor javascript href', (js) => `<a href="javascript:${js}">link</a>`],
  ['url', 'iframe javascript src', (js) => `<iframe src="javascript:${js}"></iframe>`],
  ['url', 'iframe srcdoc with a handler', (js) => `<iframe srcdoc="<img src=x onerror=${js}>"></iframe>`],
  ['url', 'iframe srcdoc entity-escaped', (js) => `<iframe srcdoc="&lt;script&gt;${js}&lt;/script&gt;"></iframe>`],
  ['url', 'object data html', (js) => `<object data="data:text/html,<script>${js}</script>"></object>`],
  [
    'url',
    'embed svg with onload',
    (js) => `<embed src="data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' onload='${js}'/>">`,
  ],
  ['url', 'meta refresh to javascript', (js) => `<meta http-equiv="refresh" content="0;url=javascript:${js}">`],
  ['url', 'form action and its button', (js) => `<form action="javascript:${js}"><button>go</button></form>`],
  ['url', 'button formaction', (js) => `<form><button formaction="javascript:${js}">go</button></form>`],
  ['url', 'input image formaction', (js) => `<form><input type=image src=x formaction="javascript:${js}"></form>`],
  ['url', 'base href to javascript', (js) => `<base href="javascript:${js}//"><a href="/x">x</a>`],
  ['url', 'area href', (js) => `<map name=m><area shape=rect coords=0,0,9,9 href="javascript:${js}"></map>`],
  ['url', 'link with javascript and a colon entity', (js) => `<a href="javascript&colon;${js}">x</a>`],
  ['url', 'link with a tab entity in the scheme', (js) => `<a href="jav&#x09;ascript:${js}">x</a>`],
  ['url', 'link with a newline entity in the scheme', (js) => `<a href="jav&NewLine;ascript:${js}">x</a>`],
  ['url', 'link with leading control entities', (js) => `<a href="&#1;&#14;javascript:${js}">x</a>`],
  ['url', 'link with the scheme as decimal entities', (js) => `<a href="${decimalEntities('javascript:')}${js}">x</a>`],
  ['url', 'iframe data html', (js) => `<iframe src="data:text/html,<script>${js}</script>"></iframe>`],
  ['svg', 'svg script', (js) => `<svg><script>${js}</script></svg>`],
  ['svg', 'svg script href', (js) => `<svg><script href="data:,${js}"/></svg>`],
  ['svg', 'svg script xlink:href', (js) => `<svg><script xlink:href="data:,${js}"></script></svg>`],
  ['svg', 'svg onload', (js) => `<svg onload=${js}>`],
  ['svg', 'svg animate onbegin', (js) => `<svg><animate onbegin=${js} attributeName=x dur=1s>`],
  ['svg', 'svg set onbegin', (js) => `<svg><set onbegin=${js} attributeName=x to=1>`],
  [
    'svg',
    'svg animate sets a javascript href',
    (js) => `<svg><a><animate attributeName=href values="javascript:${js}"/><text y=20>x</text></a></svg>`,
  ],
  ['svg', 'svg set sets onload', (js) => `<svg><set attributeName=onload to="${js}"/></svg>`],
  ['svg', 'svg a xlink:href', (js) => `<svg><a xlink:href="javascript:${js}"><text y=20>x</text></a></svg>`],
  ['svg', 'svg image onerror', (js) => `<svg><image href=x onerror=${js} /></svg>`],
  [
    'svg',
    'svg foreignObject with an img',
    (js) => `<svg><foreignObject><img src=x onerror=${js}></foreignObject></svg>`,
  ],
  [
    'svg',
    'svg use of a data document',
    (js) =>
      `<svg><use href="data:image/svg+xml,<svg id='x' xmlns='http://www.w3.org/2000/svg'><image href='1' onerror='${js}'/></svg>#x"/></svg>`,
  ],
  ['svg', 'svg feImage', (js) => `<svg><filter><feImage href="javascript:${js}"/></filter></svg>`],
  [
    'svg',
    'svg handle event',
    (js) => `<svg><handler xmlns:ev="http://www.w3.org/2001/xml-events" ev:event="load">${js}</handler></svg>`,
  ],
  ['svg', 'svg style with an img break-out', (js) => `<svg><style><img src=x onerror=${js}></style></svg>`],
  ['svg', 'svg title break-out', (js) => `<svg><title><img src=x onerror=${js}></title></svg>`],
  ['mathml', 'math href', (js) => `<math href="javascript:${js}"><mi>x</mi></math>`],
  [
    'mathml',
    'math maction xlink:href',
    (js) => `<math><maction actiontype="statusline" xlink:href="javascript:${js}">x<mtext>y</mtext></maction></math>`,
  ],
  ['mathml', 'math mtext with an img', (js) => `<math><mtext><img src=x onerror=${js}></mtext></math>`],
  [
    'mathml',
    'math annotation-xml html',
    (js) => `<math><annotation-xml encoding="text/html"><img src=x onerror=${js}></annotation-xml></math>`,
  ],
  ['mathml', 'math mi xlink:href', (js) => `<math><mi xlink:href="data:x,<script>${js}</script>">x</mi></math>`],
  [
    'mathml',
    'math mglyph style',
    (js) => `<math><mtext><table><mglyph><style><img src=x onerror=${js}></style></mglyph></table></mtext></math>`,
  ],
  ['mathml', 'math style break-out', (js) => `<math><style><img src=x onerror=${js}></style></math>`],
  [
    'mathml',
    'math mtext textarea',
    (js) => `<math><mtext><textarea><img title="</textarea><img src=x onerror=${js}>"></textarea></mtext></math>`,
  ],
  ['mxss', 'noscript title break-out', (js) => `<noscript><p title="</noscript><img src=x onerror=${js}>"></noscript>`],
  ['mxss', 'svg p style namespace confusion', (js) => `<svg></p><style><a id="</style><img src=1 onerror=${js}>">`],
  [
    'mxss',
    'math mi mglyph svg mtext textarea',
    (js) => `<math><mi><mglyph><svg><mtext><textarea><path id="</textarea><img onerror=${js} src=1>">`,
  ],
  [
    'mxss',
    'form math mtext nested forms',
    (js) => `<form><math><mtext></form><form><mglyph><style></math><img src onerror=${js}>`,
  ],
  [
    'mxss',
    'math mtext table mglyph svg',
    (js) =>
      `<math><mtext><table><mglyph><svg><style><img src=x onerror=${js}></style></svg></mglyph></table></mtext></math>`,
  ],
  ['mxss', 'backtick attribute (old IE)', (js) => `<img src="x\` \`<script>${js}</script>"\` \`>`],
  ['mxss', 'listing with an entity', (js) => `<listing>&lt;img src=x onerror=${js}&gt;</listing>`],
  ['mxss', 'xmp break-out', (js) => `<xmp><p title="</xmp><img src=x onerror=${js}>">`],
  ['mxss', 'template in svg', (js) => `<svg><template><img src=x onerror=${js}></template></svg>`],
  ['mxss', 'select in a select', (js) => `<select><template><img src=x onerror=${js}></template></select>`],
  ['mxss', 'table foster parenting', (js) => `<table><tr><td></td><img src=x onerror=${js}></tr></table>`],
  ['mxss', 'comment in an attribute', (js) => `<a title="<!--"></a><img src=x onerror=${js}>-->`],
  ['mxss', 'cdata in html', (js) => `<![CDATA[><img src=x onerror=${js}>]]>`],
  ['mxss', 'processing instruction', (js) => `<?xml ><img src=x onerror=${js}>?>`],
  ['mxss', 'bogus comment', (js) => `<!--><img src=x onerror=${js}>-->`],
  ['mxss', 'comment ending with a bang', (js) => `<!-- --!><img src=x onerror=${js}>-->`],
  [
    'clobbering',
    'form id location with a javascript href',
    (js) => `<form id=location><input name=href value="javascript:${js}"></form>`,
  ],
  ['clobbering', 'img name cookie with a handler', (js) => `<img name=cookie src=x onerror=${js}>`],
  ['clobbering', 'the detector clobbered, then called', (js) => `<a id=${DETECTOR}></a><img src=x onerror=${js}>`],
  [
    'clobbering',
    'getElementById shadowed by a form',
    (js) => `<form name=getElementById></form><img src=x onerror=${js}>`,
  ],
  ['clobbering', 'document.body shadowed', (js) => `<img name=body><img src=x onerror=${js}>`],
  ['clobbering', 'channelElements (our global) by id', (js) => `<a id=channelElements href="javascript:${js}">x</a>`],
  [
    'clobbering',
    'two anchors make a collection',
    (js) => `<a id=config></a><a id=config name=scriptUrl href="data:,${js}"></a>`,
  ],
  [
    'clobbering',
    'attributes clobbered on a form',
    (js) => `<form id=f><input name=attributes><img src=x onerror=${js}></form>`,
  ],
  ['clobbering', 'nodeName clobbered', (js) => `<form><input name=nodeName><img src=x onerror=${js}></form>`],
  ['clobbering', 'defaultView by iframe name', (js) => `<iframe name=defaultView src="javascript:${js}"></iframe>`],
  [
    'clobbering',
    'innerHTML by an input name',
    (js) => `<form><input name=innerHTML value="<img src=x onerror=${js}>"></form>`,
  ],
  ['clobbering', 'trustedTypes by id', (js) => `<img id=trustedTypes><img src=x onerror=${js}>`],
  ['clobbering', 'DOMPurify by id', (js) => `<img id=DOMPurify name=DOMPurify><img src=x onerror=${js}>`],
  ['clobbering', 'location by an anchor name', (js) => `<a name=location href="javascript:${js}">x</a>`],
  [
    'clobbering',
    'user-content prefix forged',
    (js) => `<a id="user-content-x" name="user-content-location" href="javascript:${js}">x</a>`,
  ],
  ['parser', 'double open bracket', (js) => `<<img src=x onerror=${js}>`],
  ['parser', 'unclosed tag at the end', (js) => `<img src=x onerror=${js}//`],
  ['parser', 'extra open bracket inside', (js) => `<img src=x onerror=${js} <`],
  ['parser', 'attribute without a space', (js) => `<img src="x"onerror="${js}">`],
  ['parser', 'null byte in the tag name', (js) => `<img\u0000 src=x onerror=${js}>`],
  ['parser', 'form feed separators', (js) => `<img\fsrc=x\fonerror=${js}>`],
  ['parser', 'end tag with attributes', (js) => `</p onclick=${js}><img src=x onerror=${js}>`],
  ['parser', 'entity-escaped markup (text)', (js) => `&lt;img src=x onerror=${js}&gt;`],
  ['parser', 'percent-encoded markup (text)', (js) => `%3Cimg%20src%3Dx%20onerror%3D${js}%3E`],
  ['parser', 'json-breaking quotes and a script end', (js) => `"}</script><script>${js}</script>`],
  ['parser', 'textarea end then script', (js) => `</textarea><script>${js}</script>`],
  ['parser', 'title end then script', (js) => `</title><script>${js}</script>`],
  ['parser', 'style end then img', (js) => `</style><img src=x onerror=${js}>`],
  ['parser', 'attribute quote break-out', (js) => `" onmouseover="${js}" x="`],
  ['parser', 'single-quote attribute break-out', (js) => `' onfocus='${js}' autofocus '`],
  ['parser', 'plaintext swallowing the rest', (js) => `<plaintext><img src=x onerror=${js}>`],
  ['parser', 'unicode fullwidth brackets', (js) => `＜img src=x onerror=${js}＞`],
  ['parser', 'utf-7 (old IE)', (js) => `+ADw-script+AD4-${js}+ADw-/script+AD4-`],
];
for (const [kind, label, make] of classics) add(kind, 'html', label, make);

// ---------------------------------------------------------------- tags x event handlers x spellings

/** Tag and handler pairs that fire with no user action. `%` is where the handler goes. */
const autoFiring: [string, string][] = [
  ['img/onerror', '<img src=x %>'],
  ['svg/onload', '<svg %>'],
  ['body/onload', '<body %>'],
  ['iframe/onload', '<iframe %></iframe>'],
  ['input/onfocus', '<input autofocus %>'],
  ['details/ontoggle', '<details open %><summary>x</summary></details>'],
  ['video/onerror', '<video src=x %></video>'],
  ['audio/onerror', '<audio src=x %></audio>'],
  ['svg animate/onbegin', '<svg><animate attributeName=x dur=1s %></svg>'],
  ['object/onerror', '<object data=x %></object>'],
  ['marquee/onstart', '<marquee %>x</marquee>'],
  ['textarea/onfocus', '<textarea autofocus %></textarea>'],
];
/** Ways to write `on<event>=<js>`; each answers the attribute text. */
const handlerSpellings: [string, (event: string, js: string, n: number) => string][] = [
  ['plain', (e, js) => `${e}=${js}`],
  ['double quotes', (e, js) => `${e}="${js}"`],
  ['upper case', (e, js) => `${e.toUpperCase()}=${js}`],
  ['mixed case', (e, js) => `${e[0]!.toUpperCase()}${e.slice(1, 3)}${e.slice(3).toUpperCase()}='${js}'`],
  ['slash before', (e, js) => `/${e}=${js}`],
  ['tab and newline around =', (e, js) => `${e}\t=\n${js}`],
  ['decimal entities', (e, js) => `${e}="${decimalEntities(js)}"`],
  ['hex entities without semicolons', (e, js) => `${e}="${hexEntitiesLoose(js)}"`],
  ['unicode-escaped identifier', (e, js) => `${e}="${unicodeIdentifier(js)}"`],
  ['computed name', (e, _js, n) => `${e}="${computedCall(n)}"`],
  ['hex string eval', (e, js) => `${e}="${hexString(js)}"`],
];
for (const [pair, shape] of autoFiring) {
  const event = pair.split('/')[1]!;
  for (const [spelling, write] of handlerSpellings) {
    add('handler', 'html', `${pair} x ${spelling}`, (js, n) => shape.replace('%', write(event, js, n)));
  }
}

// ---------------------------------------------------------------- URL schemes x obfuscations

/** Bare URLs that run the JavaScript when followed or loaded. */
const urlForms: [string, (js: string, n: number) => string][] = [
  ['javascript', (js) => `javascript:${js}`],
  ['javascript upper case', (js) => `JAVASCRIPT:${js}`],
  ['javascript mixed case', (js) => `JaVaScRiPt:${js}`],
  ['javascript void', (js) => `javascript:void(${js})`],
  ['javascript with a comment', (js) => `javascript:/*http://x*/${js}`],
  ['javascript after a line comment and %0a', (js) => `javascript://%0a${js}`],
  ['javascript percent-encoded body', (js) => `javascript:${percentEncoded(js)}`],
  ['javascript unicode identifier', (js) => `javascript:${unicodeIdentifier(js)}`],
  ['javascript computed name', (_js, n) => `javascript:${computedCall(n)}`],
  ['javascript with a trailing http', (js) => `javascript:${js}//http://example.com/`],
  ['javascript with a leading space', (js) => ` javascript:${js}`],
  ['javascript with leading control characters', (js) => `\u0001\u0010javascript:${js}`],
  ['javascript with a tab inside', (js) => `java\tscript:${js}`],
  ['javascript with a newline inside', (js) => `java\nscript:${js}`],
  ['javascript with a carriage return inside', (js) => `jav\rascript:${js}`],
  ['javascript with a leading newline', (js) => `\njavascript:${js}`],
  ['javascript with a null before the colon', (js) => `javascript\u0000:${js}`],
  ['javascript with an encoded colon', (js) => `javascript%3A${js}`],
  ['javascript with entities (decoded only in HTML)', (js) => `&#106;avascript:${js}`],
  ['javascript with a colon entity', (js) => `javascript&colon;${js}`],
  ['javascript after a fake site path', (js) => `/\tjavascript:${js}`],
  ['javascript with a non-breaking space', (js) => `\u00a0javascript:${js}`],
  ['javascript as a protocol-relative lookalike', (js) => `//javascript:${js}`],
  ['javascript with an @ credential', (js) => `javascript://user@example.com/%0a${js}`],
  ['javascript hex string', (js) => `javascript:${hexString(js)}`],
  ['javascript with a fragment', (js) => `javascript:${js}#http://example.com`],
  ['javascript with a query', (js) => `javascript:${js};?x=1`],
  ['vbscript (old IE) then javascript', (js) => `vbscript:x//%0ajavascript:${js}`],
  ['data html', (js) => `data:text/html,<script>${js}</script>`],
  ['data html upper case', (js) => `DATA:TEXT/HTML,<script>${js}</script>`],
  ['data html base64', (js) => `data:text/html;base64,${Buffer.from(`<script>${js}</script>`).toString('base64')}`],
  ['data svg', (js) => `data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg" onload="${js}"/>`],
  [
    'data svg base64',
    (js) =>
      `data:image/svg+xml;base64,${Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" onload="${js}"/>`).toString('base64')}`,
  ],
  ['data javascript', (js) => `data:text/javascript,${js}`],
  ['data with a charset', (js) => `data:text/html;charset=utf-8,<img src=x onerror=${js}>`],
  ['data with a leading space', (js) => ` data:text/html,<script>${js}</script>`],
  [
    'data xhtml',
    (js) => `data:application/xhtml+xml,<html xmlns="http://www.w3.org/1999/xhtml"><script>${js}</script></html>`,
  ],
  ['blob lookalike', (js) => `blob:javascript:${js}`],
  ['http then javascript in the path', (js) => `https://example.com/"><img src=x onerror=${js}>`],
  ['https with a quote break-out', (js) => `https://example.com/x' onerror='${js}`],
  ['site path with a quote break-out', (js) => `/x" onerror="${js}`],
  ['site path with a script', (js) => `/x</a><script>${js}</script>`],
  ['protocol-relative with a handler', (js) => `//example.com/"onload="${js}`],
  ['backslash path with javascript', (js) => `\\\\javascript:${js}`],
];
for (const [label, make] of urlForms) add('url', 'url', label, make);

/** Carriers that put a URL where HTML uses it: followed on a click, or loaded at once. `%` is the URL. */
const urlCarriers: [string, string][] = [
  ['a href', '<a href="%">link</a>'],
  ['iframe src', '<iframe src="%"></iframe>'],
  ['embed src', '<embed src="%">'],
  ['object data', '<object data="%"></object>'],
  ['svg a href', '<svg><a href="%"><text y="20">link</text></a></svg>'],
  ['form action', '<form action="%"><button>go</button></form>'],
  ['img src', '<img src="%">'],
];
/** The URL forms each carrier takes (a sample across schemes and obfuscations; HTML-escaped quotes). */
const carriedForms = urlForms.filter((_, i) => i % 2 === 0);
for (const [carrier, shape] of urlCarriers) {
  for (const [label, make] of carriedForms) {
    add('url', 'html', `${carrier} x ${label}`, (js, n) => shape.replace('%', make(js, n).replaceAll('"', '&quot;')));
  }
}

// ---------------------------------------------------------------- mutation XSS: wrappers x break-outs

/** Elements whose content the parser reads differently in HTML, SVG or MathML, or after a round trip. */
const wrappers = [
  'noscript',
  'noembed',
  'noframes',
  'xmp',
  'iframe',
  'textarea',
  'title',
  'style',
  'template',
  'svg',
  'math',
  'select',
  'table',
  'plaintext',
];
/** Break-outs: a closing tag hidden in an attribute, which the next parse may read as markup. */
const breakOuts: [string, (w: string, js: string) => string][] = [
  ['title attribute', (w, js) => `<${w}><p title="</${w}><img src=x onerror=${js}>"></${w}>`],
  ['id attribute in svg', (w, js) => `<svg><${w}><a id="</${w}><img src=x onerror=${js}>"></a></${w}></svg>`],
  ['math mtext', (w, js) => `<math><mtext><${w}><b title="</${w}><svg onload=${js}>"></b></${w}></mtext></math>`],
];
for (const w of wrappers) {
  for (const [label, make] of breakOuts) add('mxss', 'html', `${w} x ${label}`, (js) => make(w, js));
}

// ---------------------------------------------------------------- DOM clobbering: names x carriers

/** Globals and document properties a clobbering id or name would shadow. */
const clobbered = ['location', 'cookie', 'domain', 'referrer', 'open', 'alert', 'fetch', 'top', 'self', 'parent'];
for (const name of clobbered) {
  add('clobbering', 'html', `id=${name} with a handler`, (js) => `<img id=${name} src=x onerror=${js}>`);
  add(
    'clobbering',
    'html',
    `name=${name} form with a javascript action`,
    (js) => `<form name=${name} action="javascript:${js}"><button>go</button></form>`,
  );
}

// ---------------------------------------------------------------- template injection

const templates: [string, (js: string, n: number) => string][] = [
  ['mustache constructor', (js) => `{{constructor.constructor('${js}')()}}`],
  ['mustache this.constructor', (js) => `{{this.constructor.constructor('${js}')()}}`],
  ['angular $on', (js) => `{{$on.constructor('${js}')()}}`],
  ['angular 1.x sandbox escape', (js) => `{{'a'.constructor.prototype.charAt=[].join;$eval('x=1} } };${js}//');}}`],
  [
    'angular toString',
    (js) =>
      `{{toString.constructor.prototype.toString=toString.constructor.prototype.call;["a","${js}"].sort(toString.constructor)}}`,
  ],
  ['vue 2 _c', (js) => `{{_c.constructor('${js}')()}}`],
  ['vue 3 _openBlock', (js) => `{{_openBlock.constructor('${js}')()}}`],
  ['ES template literal', (js) => `\${${js}}`],
  ['ES template literal in backticks', (js) => `\`\${${js}}\``],
  ['ruby and pug interpolation', (js) => `#{${js}}`],
  ['ERB and EJS', (js) => `<%= ${js} %>`],
  ['EJS raw', (js) => `<%- ${js} %>`],
  ['thymeleaf', (js) => `[[\${${js}}]]`],
  ['handlebars triple stash', (js) => `{{{constructor.constructor('${js}')()}}}`],
  ['jinja', (js) => `{{ ''.constructor.constructor('${js}')() }}`],
  ['i18next interpolation of a value', (js) => `{{name}}{{value}}{{- text}}${js}`],
  ['i18next nesting', (js) => `$t(errors.generic) $t(schedule.badges.live, {"x":"${js}"})`],
  ['i18next formatting', (js) => `{{value, ${js}}}`],
  ['knockout data-bind', (js) => `<p data-bind="html: constructor.constructor('${js}')()">x</p>`],
  ['angular ng-init', (js) => `<div ng-app ng-init="constructor.constructor('${js}')()">x</div>`],
  ['vue v-html and v-on', (js) => `<div v-html="'<img src=x onerror=${js}>'" @click="${js}">x</div>`],
  ['alpine x-init', (js) => `<div x-data x-init="${js}">x</div>`],
  ['htmx hx-on', (js) => `<div hx-on:load="${js}">x</div>`],
  ['lit-style attribute binding', (js) => `<p .innerHTML="\${'<img src=x onerror=${js}>'}">x</p>`],
  ['jQuery html() lookalike', (js) => `<option><style></option></select><img src=x onerror=${js}></style>`],
  [
    'JSON in a script data block',
    (js) => `<script type="application/ld+json">{"x":"</script><script>${js}</script>"}</script>`,
  ],
  ['importmap', (js) => `<script type="importmap">{"imports":{"x":"data:text/javascript,${js}"}}</script>`],
  ['markdown link', (js) => `[click](javascript:${js})`],
  ['markdown image', (js) => `![x](x"onerror="${js})`],
  ['bbcode url', (js) => `[url=javascript:${js}]x[/url]`],
];
for (const [label, make] of templates) add('template', 'template', label, make);

/** The whole corpus, numbered from 1. */
export const XSS_VECTORS: readonly XssVector[] = vectors;

/** The vectors a sink of a shape takes: text sinks take all, HTML sinks markup and templates, URL sinks URLs. */
export function vectorsFor(sink: 'text' | 'html' | 'url', sample = false): XssVector[] {
  const fit = XSS_VECTORS.filter((v) =>
    sink === 'text' ? true : sink === 'html' ? v.shape !== 'url' : v.shape === 'url',
  );
  return sample ? sampleOf(fit) : fit;
}

/**
 * A fast share for `npm test`: every hand-written classic of the kinds that execute most often, and every tenth
 * of the rest, so each kind and spelling family is present.
 */
function sampleOf(list: XssVector[]): XssVector[] {
  return list.filter(
    (v, i) => i % 10 === 0 || (v.n <= classics.length && i % 3 === 0) || (v.shape === 'url' && i % 4 === 0),
  );
}
