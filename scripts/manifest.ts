/* eslint-disable max-lines -- one generator: the surface to the manifest, reference, tags and typings, and the checks of each */
/**
 * The Custom Elements Manifest and the element reference, generated from elements/surface.ts (the public surface
 * written once) and the event classes of src/events (their `detail` types):
 *
 *   --sources  (the build, first) writes elements/README.md and elements/tags.ts, which the bundle's declarations
 *              include
 *   --dist     (the build, last) writes dist/custom-elements.json and the React and Vue typings' entries
 *   --check    (npm test, before the build) fails when the committed reference or tags are not what the surface gives
 *
 * and the operator API's OpenAPI document, docs/operator-api.json, from its zod schemas (server/operator/openapi.ts):
 * written by --sources, checked by --check.
 *
 *   --parts    (npm test, last) fails when the CSS parts the tests saw rendered and the surface's parts disagree:
 *              test-results/parts.json (the element tests, written by the web test runner) and
 *              test-results/parts-e2e/ (the end-to-end tests)
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import { ELEMENTS, type ElementSurface, type Named } from '../elements/surface.js';
import { openApiDocument } from '../server/operator/openapi.js';

const MANIFEST = 'dist/custom-elements.json';
const REFERENCE = 'elements/README.md';
const PARTS_SEEN = 'test-results/parts.json';
const PARTS_E2E = 'test-results/parts-e2e';

type Surface = ElementSurface<readonly string[]>;
const elements = ELEMENTS as unknown as Surface[];

/** An element's parts: its own, then those of the views it shows (`partsOf`) that it does not list itself. */
function allParts(el: Surface): { name: string; description?: string }[] {
  const own = el.parts.map(named);
  const names = new Set(own.map((p) => p.name));
  const shown = (el.partsOf ?? []).flatMap((tag) => elements.find((e) => e.tag === tag)?.parts.map(named) ?? []);
  const added = shown.filter((p) => !names.has(p.name) && names.add(p.name));
  return [...own, ...added];
}

const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
const named = (entry: Named) =>
  typeof entry === 'string' ? { name: entry } : { name: entry[0], description: entry[1] };

/**
 * The `detail` type of each event class, as written in src/events (the viewer's and the account's events, which
 * index.ts lists), with those files' own types inlined.
 */
function detailTypes(): Map<string, string> {
  const source = ['src/events/viewer.ts', 'src/events/account.ts'].map((f) => readFileSync(f, 'utf8')).join('\n');
  const aliases = new Map<string, string>();
  for (const m of source.matchAll(/export interface (\w+) (\{[\s\S]*?\n\})/g)) aliases.set(m[1]!, m[2]!);
  for (const m of source.matchAll(/export type (\w+) = ([^;]+);/g)) aliases.set(m[1]!, m[2]!);
  const details = new Map<string, string>();
  for (const m of source.matchAll(/export class (\w+) extends CustomEvent</g)) {
    // The generic argument, up to its matching '>'.
    let depth = 1;
    let i = m.index + m[0].length;
    const start = i;
    for (; depth > 0 && i < source.length; i++) {
      if (source[i] === '<') depth++;
      else if (source[i] === '>' && source[i - 1] !== '=') depth--;
    }
    let text = source.slice(start, i - 1);
    for (let pass = 0; pass < 3; pass++) {
      for (const [name, body] of aliases) text = text.replace(new RegExp(`\\b${name}\\b`, 'g'), body);
    }
    // Comments out, whitespace folded: one line.
    text = text
      .replace(/\/\*\*[\s\S]*?\*\//g, '')
      .replace(/\s+/g, ' ')
      .replace(/; \}/g, ' }')
      .replace(/\{ /g, '{ ')
      .trim();
    details.set(m[1]!, text);
  }
  // Every public event class has its detail here: one the files above do not declare would be documented as unknown.
  for (const name of new Set(ELEMENTS.flatMap((el) => el.events.map((e) => e.type))))
    if (name !== 'Event' && !details.has(name)) throw new Error(`manifest: no event class ${name} in src/events`);
  return details;
}

/**
 * Where each tag's root is in the built package: its chunk's name carries its content hash, so the build's
 * dist/integrity.json says which (before a build, the name without the hash).
 */
function tagChunks(): Record<string, string> {
  const file = 'dist/integrity.json';
  if (!existsSync(file)) return {};
  return (JSON.parse(readFileSync(file, 'utf8')) as { tags?: Record<string, string> }).tags ?? {};
}

/** The manifest (schema 2.1.0): one module per element's root, with its class declaration and tag definition. */
export function manifest(): object {
  const built = tagChunks();
  const details = detailTypes();
  const eventType = (type: string) => (type === 'Event' ? 'Event' : `CustomEvent<${details.get(type) ?? 'unknown'}>`);
  return {
    schemaVersion: '2.1.0',
    modules: elements.map((el) => {
      // Where the tag's code is in the package.
      const path = `dist/${built[el.tag] ?? `chunks/${el.tag}.js`}`;
      const attributes = Object.entries(el.attributes).map(([prop, doc]) => ({
        name: kebab(prop),
        fieldName: prop,
        type: { text: doc.type },
        description: doc.description,
        ...(doc.default !== undefined ? { default: JSON.stringify(doc.default) } : {}),
      }));
      return {
        kind: 'javascript-module',
        path,
        declarations: [
          {
            kind: 'class',
            name: el.className,
            tagName: el.tag,
            customElement: true,
            description: el.description,
            superclass: { name: 'HTMLElement' },
            attributes,
            members: [
              // Each attribute is also a string property of the same (camelCase) name.
              ...attributes.map((a) => ({
                kind: 'field',
                name: a.fieldName,
                type: { text: `${propertyType(a.type.text)} | undefined` },
                description: a.description,
                attribute: a.name,
              })),
              ...el.members.map((m) =>
                m.kind === 'method'
                  ? { kind: 'method', name: m.name, description: m.description, type: { text: m.type } }
                  : {
                      kind: 'field',
                      name: m.name,
                      type: { text: m.type },
                      description: m.description,
                      ...(m.readonly ? { readonly: true } : {}),
                    },
              ),
            ],
            events: el.events.map((e) => ({
              name: e.name,
              type: { text: eventType(e.type) },
              description: e.description,
            })),
            slots: el.slots.map(named),
            cssParts: allParts(el),
            cssProperties: el.cssProperties.map(named),
          },
        ],
        exports: [
          { kind: 'custom-element-definition', name: el.tag, declaration: { name: el.className, module: path } },
        ],
      };
    }),
  };
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
/** Inline code, with a longer fence when the text has a backtick itself. */
const code = (text: string) => (text.includes('`') ? `\`\` ${text} \`\`` : `\`${text}\``);

/** The element reference in markdown. */
export function reference(): string {
  const details = detailTypes();
  const out: string[] = [
    '# Element reference',
    '',
    '<!-- Generated by scripts/manifest.ts from elements/surface.ts: edit that file, then `npm run build`. -->',
    '',
    'Every tag of channel elements: its attributes (each also a property of the camelCase name that holds the',
    "attribute's string), events, slots, CSS parts and custom properties. The same data ships as the Custom Elements",
    'Manifest (`custom-elements.json`, the `customElements` field of package.json), which editors and tools read, and',
    "as TypeScript types: `HTMLElementTagNameMap` entries (so `document.createElement('channel-player')` is a",
    "`ChannelPlayerElement`), each element's event map, and each element's attributes with their value types",
    '(`ChannelPlayerElementAttributes`).',
    '',
    ...elements.map((el) => `- [\`<${el.tag}>\`](#${el.tag})`),
  ];
  for (const el of elements) {
    out.push('', `## ${el.tag}`, '', el.description, '', '### Attributes', '');
    out.push('| attribute | type | default | |', '|---|---|---|---|');
    for (const [prop, doc] of Object.entries(el.attributes)) {
      out.push(
        `| ${code(kebab(prop))} | ${code(cell(doc.type))} | ${doc.default ? code(doc.default) : ''} | ${cell(doc.description)} |`,
      );
    }
    if (el.members.length) {
      out.push('', '### Properties and methods', '', '| member | type | |', '|---|---|---|');
      for (const m of el.members) {
        const name = m.kind === 'method' ? `${m.name}()` : m.name;
        out.push(
          `| ${code(name)}${m.readonly ? ' (read-only)' : ''} | ${code(cell(m.type))} | ${cell(m.description)} |`,
        );
      }
    }
    out.push('', '### Events', '', '| event | `detail` | |', '|---|---|---|');
    const media = el.events.filter((e) => e.type === 'Event' && !e.name.startsWith('channel-'));
    for (const e of el.events.filter((x) => !media.includes(x))) {
      const detail = e.type === 'Event' ? 'none' : code(cell(details.get(e.type) ?? 'unknown'));
      out.push(`| \`${e.name}\` | ${detail} | ${cell(e.description)} |`);
    }
    if (media.length) {
      out.push(`| ${media.map((e) => `\`${e.name}\``).join(', ')} | none | ${cell(media[0]!.description)} |`);
    }
    if (el.slots.length) {
      out.push('', '### Slots', '');
      for (const s of el.slots.map(named)) out.push(`- \`${s.name}\`${s.description ? `: ${s.description}` : ''}`);
    }
    out.push('', '### CSS parts', '');
    out.push(
      el.parts
        .map(named)
        .map((p) => `\`${p.name}\`${p.description ? ` (${p.description})` : ''}`)
        .join(', '),
    );
    if (el.partsOf?.length) {
      const links = el.partsOf.map((tag) => `[\`<${tag}>\`](#${tag})`).join(', ');
      out.push('', `And the parts of the views it shows, as the standalone elements have them: ${links}.`);
    }
    out.push('', '### CSS custom properties', '');
    out.push(
      el.cssProperties
        .map(named)
        .map((p) => `\`${p.name}\`${p.description ? ` (${p.description})` : ''}`)
        .join(', '),
    );
  }
  return `${out.join('\n')}\n`;
}

/**
 * The type of an attribute's property: the element hands the value to the same parser as the attribute's, which
 * reads strings, so a flag's property is a string ('' or 'false') and an id's is its digits.
 */
function propertyType(attributeType: string): string {
  if (attributeType === 'boolean') return 'string';
  if (attributeType.includes('${number}')) return '`${number}`';
  return attributeType;
}

/** Properties of HTMLElement an attribute's property shares a name with: the element inherits them as they are. */
const INHERITED = new Set(['lang', 'title', 'hidden', 'dir']);

/**
 * elements/tags.ts: the element interfaces (each attribute's property, the player's media API, the events with
 * their classes), their attribute maps (what a typed host may set: React and Vue typings use them) and the
 * `HTMLElementTagNameMap` entries, so that `document.createElement('channel-player')` is typed.
 */
export function tags(): string {
  const classes = [...new Set(elements.flatMap((el) => el.events.map((e) => e.type)))]
    .filter((t) => t !== 'Event')
    .sort();
  const out: string[] = [
    '// Generated by scripts/manifest.ts from elements/surface.ts (`npm run build`): do not edit.',
    `import type { ${classes.join(', ')} } from '../src/events/index.js';`,
  ];
  for (const el of elements) {
    const name = el.className;
    out.push(
      '',
      `/** The attributes of \`<${el.tag}>\`, with their value types. */`,
      `export interface ${name}Attributes {`,
    );
    for (const [prop, doc] of Object.entries(el.attributes)) {
      out.push(`  /** ${doc.description.replace(/\*\//g, '*\\/')} */`, `  '${kebab(prop)}'?: ${doc.type};`);
    }
    out.push(
      '}',
      '',
      `/** The events \`<${el.tag}>\` fires, by name. */`,
      `export interface ${name}EventMap extends HTMLElementEventMap {`,
    );
    // The media events are HTMLElementEventMap's already.
    for (const e of el.events) if (e.name.startsWith('channel-')) out.push(`  '${e.name}': ${e.type};`);
    out.push(
      '}',
      '',
      `/** \`<${el.tag}>\`: ${el.description.replace(/\*\//g, '*\\/')} */`,
      `export interface ${name} extends HTMLElement {`,
    );
    for (const [prop, doc] of Object.entries(el.attributes)) {
      // An inherited name stays HTMLElement's; a member of the same name (the player's `muted`) is the member's.
      if (INHERITED.has(prop) || el.members.some((m) => m.name === prop)) continue;
      out.push(
        `  /** The \`${kebab(prop)}\` attribute's value: ${doc.description.replace(/\*\//g, '*\\/')} */`,
        `  ${prop}: ${propertyType(doc.type)} | undefined;`,
      );
    }
    for (const m of el.members) {
      out.push(`  /** ${m.description} */`);
      out.push(
        m.kind === 'method' ? `  ${m.name}: ${m.type};` : `  ${m.readonly ? 'readonly ' : ''}${m.name}: ${m.type};`,
      );
    }
    out.push(
      `  addEventListener<K extends keyof ${name}EventMap>(type: K, listener: (this: ${name}, event: ${name}EventMap[K]) => unknown, options?: boolean | AddEventListenerOptions): void;`,
      '  addEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | AddEventListenerOptions): void;',
      `  removeEventListener<K extends keyof ${name}EventMap>(type: K, listener: (this: ${name}, event: ${name}EventMap[K]) => unknown, options?: boolean | EventListenerOptions): void;`,
      '  removeEventListener(type: string, listener: EventListenerOrEventListenerObject, options?: boolean | EventListenerOptions): void;',
      '}',
    );
  }
  out.push(
    '',
    '/** Every tag with its element interface and its attributes. */',
    'export interface ChannelElementTags {',
  );
  for (const el of elements)
    out.push(`  '${el.tag}': { element: ${el.className}; attributes: ${el.className}Attributes };`);
  out.push('}', '', 'declare global {', '  interface HTMLElementTagNameMap {');
  for (const el of elements) out.push(`    '${el.tag}': ${el.className};`);
  out.push('  }', '}', '');
  return out.join('\n');
}

/** The tags and their generated type names, for the framework typings. */
const typeNames = () =>
  elements.map((el) => ({
    tag: el.tag,
    element: el.className,
    attributes: `${el.className}Attributes`,
    events: `${el.className}EventMap`,
    // Every event with the type of what its listener gets (the media events are plain Events).
    all: el.events.map((e) => ({
      name: e.name,
      type: e.name.startsWith('channel-') ? `${el.className}EventMap['${e.name}']` : 'Event',
    })),
    custom: el.events.filter((e) => e.name.startsWith('channel-')).map((e) => e.name),
    media: el.events.some((e) => !e.name.startsWith('channel-')),
  }));

/** React's own handler props for media events, which React 19 attaches only on <video> and <audio>. */
const REACT_MEDIA_HANDLERS = [
  'onAbort',
  'onCanPlay',
  'onCanPlayThrough',
  'onDurationChange',
  'onEmptied',
  'onEncrypted',
  'onEnded',
  'onLoadedData',
  'onLoadedMetadata',
  'onLoadStart',
  'onPause',
  'onPlay',
  'onPlaying',
  'onProgress',
  'onRateChange',
  'onResize',
  'onSeeked',
  'onSeeking',
  'onStalled',
  'onSuspend',
  'onTimeUpdate',
  'onVolumeChange',
  'onWaiting',
];

/**
 * dist/react.d.ts (`import type {} from 'channel-elements/react'`): JSX.IntrinsicElements entries for React 19,
 * which listens on a custom element to `on` + the exact event name (`onchannel-purchase-complete`, `ontimeupdate`):
 * every event of the tag is typed so. React's own camelCase media handlers (`onTimeUpdate`) are left out of the
 * player's props: React attaches them only to <video> and <audio>, so on the player they would never run.
 */
export function reactTypes(): string {
  const names = typeNames();
  const imports = names.flatMap((n) => [n.element, n.attributes, n.events]).join(', ');
  const media = REACT_MEDIA_HANDLERS.map((h) => `'${h}'`).join(' | ');
  const out = [
    '// Generated by scripts/manifest.ts (`npm run build`): the tags in React 19 JSX.',
    `import type { ${imports} } from './types/elements/index.js';`,
    "import type { HTMLAttributes, Key, ReactNode, Ref } from 'react';",
    '',
    `/** React's handlers of media events, which never run on a custom element. */`,
    `type ReactMediaHandlers = ${media};`,
    '',
    '/** A tag in JSX: its attributes, `on` + each of its events (`L`), and what any element takes. */',
    'export type ChannelElementJsx<E, A, L, Omitted extends string = never> = Omit<',
    '  HTMLAttributes<E>,',
    '  keyof A | Omitted',
    '> &',
    '  A &',
    '  L & { ref?: Ref<E>; key?: Key; children?: ReactNode; class?: string };',
    '',
    "declare module 'react' {",
    '  namespace JSX {',
    '    interface IntrinsicElements {',
    ...names.map((n) => {
      const listeners = n.all.map((e) => `'on${e.name}'?: (event: ${e.type}) => void`).join('; ');
      const omitted = n.media ? ', ReactMediaHandlers' : '';
      return `      '${n.tag}': ChannelElementJsx<${n.element}, ${n.attributes}, { ${listeners} }${omitted}>;`;
    }),
    '    }',
    '  }',
    '}',
    '',
  ];
  return out.join('\n');
}

/** An attribute's name as a Vue prop (camelCase: Vue matches `event-id` in a template to `eventId`). */
const camel = (name: string) => name.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());

/**
 * dist/vue.d.ts (`import type {} from 'channel-elements/vue'`): GlobalComponents entries for Vue 3's template type
 * checking: the attributes as camelCase props (a template may write either form), and each of the tag's own events
 * as Vue names its listener (`@channel-purchase-complete` is `onChannelPurchaseComplete`). Vue must also be told
 * the tags are custom elements (`isCustomElement`, docs/frameworks.md).
 */
export function vueTypes(): string {
  const names = typeNames();
  const listener = (event: string) => `on${event.replace(/(^|-)(\w)/g, (_m, _d, c: string) => c.toUpperCase())}`;
  const imports = names.flatMap((n) => [n.attributes, n.events]).join(', ');
  const out = [
    '// Generated by scripts/manifest.ts (`npm run build`): the tags in Vue 3 templates.',
    "import type { DefineComponent } from 'vue';",
    `import type { ${imports} } from './types/elements/index.js';`,
    '',
    "declare module 'vue' {",
    '  interface GlobalComponents {',
    ...names.map((n) => {
      const el = elements.find((e) => e.tag === n.tag)!;
      const props = Object.keys(el.attributes)
        .map((prop) => `${camel(kebab(prop))}?: ${n.attributes}['${kebab(prop)}']`)
        .join('; ');
      const events = n.custom.map((e) => `${listener(e)}?: (event: ${n.events}['${e}']) => void`).join('; ');
      return `    '${n.tag}': DefineComponent<{ ${props}${events ? `; ${events}` : ''} }>;`;
    }),
    '  }',
    '}',
    '',
  ];
  return out.join('\n');
}

/** What the element tests saw against the surface: parts rendered but not listed, and listed but never rendered. */
export function partsMismatch(seen: Record<string, string[]>): string[] {
  const problems: string[] = [];
  for (const el of elements) {
    // Its own parts must be rendered by it; the views' parts it shows may be rendered by it too.
    const own = new Set(el.parts.map((p) => named(p).name));
    const listed = new Set(allParts(el).map((p) => p.name));
    const rendered = new Set(seen[el.tag] ?? []);
    const unlisted = [...rendered].filter((p) => !listed.has(p)).sort();
    const unseen = [...own].filter((p) => !rendered.has(p)).sort();
    if (unlisted.length)
      problems.push(`<${el.tag}> renders parts elements/surface.ts does not list: ${unlisted.join(', ')}`);
    if (unseen.length) problems.push(`<${el.tag}> lists parts no element test rendered: ${unseen.join(', ')}`);
  }
  return problems;
}

const TAGS = 'elements/tags.ts';
const OPENAPI = 'docs/operator-api.json';
const openApi = await format(JSON.stringify(openApiDocument()), {
  ...(await resolveConfig(OPENAPI)),
  filepath: OPENAPI,
});
const json = `${JSON.stringify(manifest(), null, 2)}\n`;
const markdown = reference();
const typed = await format(tags(), { ...(await resolveConfig(TAGS)), filepath: TAGS });
const mode = process.argv[2] ?? '--sources';
const fail = (problems: string[]) => {
  if (!problems.length) return;
  console.error(problems.map((p) => `manifest: ${p}`).join('\n'));
  process.exit(1);
};

if (mode === '--check') {
  // The committed files are what the surface gives (run before the build, which would rewrite them).
  const current = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8') : '');
  fail([
    ...[REFERENCE, TAGS]
      .filter((file) => current(file) !== (file === TAGS ? typed : markdown))
      .map((file) => `${file} is not what elements/surface.ts gives: run \`npm run build\` and commit it`),
    ...(current(OPENAPI) === openApi
      ? []
      : [`${OPENAPI} is not what server/operator/schemas.ts gives: run \`npm run build\` and commit it`]),
  ]);
  console.log(`manifest: ${elements.length} elements; ${REFERENCE} and ${TAGS} are up to date`);
} else if (mode === '--parts') {
  const e2e = existsSync(PARTS_E2E) ? readdirSync(PARTS_E2E).filter((f) => f.endsWith('.json')) : [];
  if (!existsSync(PARTS_SEEN)) fail([`${PARTS_SEEN} is missing: run \`npm run test:unit\` first`]);
  if (!e2e.length) fail([`${PARTS_E2E}/ has no parts: run \`npm run test:e2e\` first`]);
  const seen: Record<string, string[]> = {};
  for (const file of [PARTS_SEEN, ...e2e.map((f) => join(PARTS_E2E, f))]) {
    for (const [tag, parts] of Object.entries(JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>)) {
      (seen[tag] ??= []).push(...parts);
    }
  }
  fail(partsMismatch(seen));
  console.log(`manifest: the parts the tests rendered are the documented parts of all ${elements.length} elements`);
} else if (mode === '--sources') {
  // Before the bundle and its declarations are built: the reference and the typed tags they include.
  writeFileSync(REFERENCE, markdown);
  writeFileSync(TAGS, typed);
  writeFileSync(OPENAPI, openApi);
} else if (mode === '--dist') {
  // After: the manifest and the framework typings' entries (types, and an empty module so that each entry also
  // resolves as JavaScript).
  mkdirSync(dirname(MANIFEST), { recursive: true });
  writeFileSync(MANIFEST, json);
  for (const [name, types] of [
    ['react', reactTypes()],
    ['vue', vueTypes()],
  ] as const) {
    writeFileSync(`dist/${name}.d.ts`, types);
    writeFileSync(`dist/${name}.js`, `// Types only: see ${name}.d.ts.\nexport {};\n`);
  }
} else {
  fail([`unknown mode ${mode}: --sources, --dist, --check or --parts`]);
}
