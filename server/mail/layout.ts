/**
 * A letter's body (letters.ts) laid out twice: as plain text, and as HTML in the channel's colours with its logo.
 * The HTML is a table layout with inline styles (what mail readers render), every value escaped, every colour
 * checked; it reads the same with images off (the logo's alt text is the channel's name) and its one action is a
 * button followed by the same link written out, so it works where buttons do not.
 */
import { buttonFallback, footer, type Body, type Brand, type Language } from './letters.js';

/** An email's written forms. */
export interface Written {
  subject: string;
  text: string;
  html: string;
}

/** Text safe inside HTML elements and double-quoted attributes. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** A CSS colour from settings, or the fallback: only `#rgb`, `#rrggbb` (and their alpha forms) reach a style. */
const colour = (value: string, fallback: string) =>
  /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value) ? value : fallback;

/** Black or white, whichever reads better on a `#rgb`/`#rrggbb` background (WCAG relative luminance). */
function textOn(background: string): string {
  let hex = background.slice(1);
  if (hex.length <= 4) hex = [...hex.slice(0, 3)].map((c) => c + c).join('');
  const [r, g, b] = [0, 2, 4].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  const luminance = 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  // White text on the background, against black: the contrast ratios (1.05 / (L + 0.05)) and ((L + 0.05) / 0.05).
  return 1.05 / (luminance + 0.05) >= (luminance + 0.05) / 0.05 ? '#ffffff' : '#000000';
}

/** A subject on one line (a product or form name from the channel's data might hold a line break). */
const oneLine = (value: string) => value.replace(/[\r\n]+/g, ' ').trim();

/** A value over several lines, indented after the first so no line of it can pass for another field. */
const indented = (value: string) => value.replace(/\r\n?|\n/g, '\n  ');

/** The body as plain text. */
function asText(body: Body, language: Language, brand: Brand): string {
  const blocks: string[] = [];
  if (body.greeting) blocks.push(body.greeting);
  blocks.push(...body.paragraphs);
  if (body.details?.length) blocks.push(body.details.map((f) => `${f.label}: ${indented(f.value)}`).join('\n'));
  if (body.action) blocks.push(`${body.action.label}:\n${body.action.url}`);
  blocks.push(...body.closing);
  blocks.push(`-- \n${footer(language, brand).join('\n')}`);
  return `${blocks.join('\n\n')}\n`;
}

/** A paragraph's text in HTML: escaped, its line breaks kept. */
const paragraph = (value: string, style: string) =>
  `<p style="${style}">${escapeHtml(value).replace(/\r\n?|\n/g, '<br>')}</p>`;

/** The body as HTML. */
function asHtml(body: Body, language: Language, brand: Brand, subject: string): string {
  const c = {
    header: colour(brand.colors.header, '#1b2430'),
    headerText: colour(brand.colors.headerText, '#ffffff'),
    primary: colour(brand.colors.primary, '#1d4ed8'),
    background: colour(brand.colors.background, '#f5f7fb'),
    text: colour(brand.colors.text, '#1b2430'),
  };
  const font = 'font-family:Arial,Helvetica,sans-serif;';
  const p = `margin:0 0 16px;font-size:16px;line-height:1.5;color:${c.text};`;
  const name = escapeHtml(brand.name);
  const logo =
    brand.logo && /^https?:\/\//.test(brand.logo)
      ? `<img src="${escapeHtml(brand.logo)}" alt="${name}" height="40" style="display:block;height:40px;max-width:240px;border:0;color:${c.headerText};font-size:20px;font-weight:bold;">`
      : `<span style="font-size:20px;font-weight:bold;color:${c.headerText};">${name}</span>`;
  const parts: string[] = [];
  if (body.greeting) parts.push(paragraph(body.greeting, p));
  for (const text of body.paragraphs) parts.push(paragraph(text, p));
  if (body.details?.length) {
    const rows = body.details
      .map(
        (f) =>
          `<tr><th scope="row" align="left" valign="top" style="padding:6px 12px 6px 0;font-size:14px;color:${c.text};white-space:nowrap;">${escapeHtml(f.label)}</th>` +
          `<td style="padding:6px 0;font-size:14px;color:${c.text};">${escapeHtml(f.value).replace(/\r\n?|\n/g, '<br>')}</td></tr>`,
      )
      .join('');
    parts.push(
      `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:0 0 16px;border-collapse:collapse;">${rows}</table>`,
    );
  }
  if (body.action) {
    const url = escapeHtml(body.action.url);
    parts.push(
      `<p style="margin:24px 0;"><a href="${url}" style="display:inline-block;padding:12px 20px;border-radius:6px;background:${c.primary};color:${textOn(c.primary)};font-size:16px;font-weight:bold;text-decoration:none;">${escapeHtml(body.action.label)}</a></p>`,
      `<p style="margin:0 0 16px;font-size:13px;line-height:1.5;color:${c.text};">${escapeHtml(buttonFallback(language))}<br><a href="${url}" style="color:${c.primary};word-break:break-all;">${url}</a></p>`,
    );
  }
  for (const text of body.closing) parts.push(paragraph(text, p));
  const foot = footer(language, brand)
    .map((line) => escapeHtml(line))
    .join('<br>');
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:0;background:${c.background};${font}">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:${c.background};"><tr><td align="center" style="padding:24px 12px;">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:560px;background:#ffffff;border-radius:8px;${font}">
<tr><td style="padding:16px 24px;background:${c.header};border-radius:8px 8px 0 0;">${logo}</td></tr>
<tr><td style="padding:24px;">${parts.join('\n')}</td></tr>
<tr><td style="padding:16px 24px;border-top:1px solid #e5e7eb;font-size:12px;line-height:1.5;color:#555555;">${foot}</td></tr>
</table></td></tr></table>
</body></html>
`;
}

/** A body's subject, text and HTML. */
export function layOut(body: Body, language: Language, brand: Brand): Written {
  const subject = oneLine(body.subject);
  return { subject, text: asText(body, language, brand), html: asHtml(body, language, brand, subject) };
}
