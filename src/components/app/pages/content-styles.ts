/**
 * Styles of the site's content pages (channel pages, about, privacy, terms, FAQ, contacts, simulate). The site
 * adopts only its own sheet, so each of these pages renders this text in a <style> of its own. Sizes in px/em.
 */

/** The CSS of the content pages. */
export const contentCss = /* css */ `
.content-page { display: grid; gap: 16px; max-width: 760px; }
.content-page h2 { font-size: 1.2em; }
.blocks { display: grid; gap: 14px; }
.block.paragraph { display: grid; gap: 10px; overflow-wrap: anywhere; }
.block.paragraph :where(ul, ol) { padding-inline-start: 1.4em; }
.block.paragraph :where(a), .static a, .details a { color: var(--_accent, #1f5fd6); text-decoration: underline; }
.block.paragraph :where(img) { max-width: 100%; height: auto; }
.block.paragraph :where(blockquote) { border-inline-start: 3px solid var(--_line, #d5d8de); padding-inline-start: 12px; }
.block.image { display: block; max-width: 100%; height: auto; border-radius: var(--_radius, 10px); }
.static { white-space: pre-line; }
.details { display: grid; grid-template-columns: max-content 1fr; gap: 6px 16px; }
.details > div { display: contents; }
.details dt { font-weight: 600; }
.details dd { white-space: pre-line; }
.faq { display: grid; gap: 8px; }
.faq-item { border: 1px solid var(--_line, #d5d8de); border-radius: var(--_radius, 10px); }
.faq-item h2 { font-size: 1em; margin: 0; }
.faq-question {
  display: flex; width: 100%; justify-content: space-between; gap: 12px; padding: 12px 14px; text-align: start;
  background: none; border: 0; cursor: pointer; font: inherit; font-weight: 600; color: inherit;
}
.faq-question::after { content: "+"; font-weight: 700; }
.faq-question[aria-expanded="true"]::after { content: "\\2212"; }
.faq-answer { display: grid; gap: 8px; padding: 0 14px 14px; }
.faq-answer[hidden] { display: none; }
.contact-form { display: grid; gap: 12px; max-width: 520px; }
.field { display: grid; gap: 4px; }
.field label { font-size: .9em; font-weight: 600; }
.field input, .field textarea {
  font: inherit; color: inherit; width: 100%; min-height: 38px; padding: 6px 10px; border-radius: 8px;
  border: 1px solid var(--_line, #8a8f99); background: var(--channel-input-background, #fff);
}
.field textarea { min-height: 120px; resize: vertical; }
.field [aria-invalid="true"] { border-color: var(--channel-error, #b3261e); }
.field-error, .form-error { color: var(--channel-error, #b3261e); font-size: .9em; font-weight: 600; }
.thanks { font-weight: 600; }
.checks { display: grid; gap: 10px; list-style: none; padding: 0; }
.check { display: grid; grid-template-columns: auto 1fr; gap: 2px 10px; align-items: baseline; }
.check .verdict {
  grid-row: span 2; min-width: 64px; text-align: center; padding: 2px 8px; border-radius: 999px;
  font-size: .85em; font-weight: 700; border: 1px solid currentColor;
}
.check.pass .verdict { color: #1d6b36; }
.check.warn .verdict { color: #7a4b00; }
.check.fail .verdict { color: #b3261e; }
.check .what { font-weight: 600; }
.summary { font-weight: 600; padding: 12px 14px; border-radius: var(--_radius, 10px); border: 1px solid var(--_line, #d5d8de); }
`;
