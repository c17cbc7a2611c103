/**
 * Channel colours as CSS custom properties, with their opacity variants.
 */

/** Opacity variants (percent) the product uses, per colour name. */
export const COLOR_VARIANTS: Readonly<Record<string, readonly number[]>> = {
  'footer-background': [20, 50, 70],
  'body-background': [10, 20, 50, 70],
  'body-text-color': [5, 10, 20, 50, 70, 95],
  'header-text-color': [50],
};

/** Parses #rgb, #rrggbb or #rrggbbaa into 0-255 channels; anything else gives undefined. */
export function parseHex(value: string): [number, number, number] | undefined {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6}|[0-9a-f]{8})$/i.exec(value.trim());
  if (!m) return undefined;
  let hex = m[1]!;
  if (hex.length === 3) hex = [...hex].map((c) => c + c).join('');
  return [parseInt(hex.slice(0, 2), 16), parseInt(hex.slice(2, 4), 16), parseInt(hex.slice(4, 6), 16)];
}

/** A colour name is safe in a custom property name. */
const NAME = /^[a-z][a-z0-9-]{0,40}$/;

/**
 * Turns the channel's colour settings into `--channel-<name>` declarations plus `--channel-<name>-<pct>`
 * variants. Only hex colours and plain names are accepted, so a hostile API value cannot inject CSS.
 */
export function colorDeclarations(colors: Record<string, string>): string {
  const lines: string[] = [];
  for (const [name, value] of Object.entries(colors)) {
    if (!NAME.test(name)) continue;
    const rgb = parseHex(value);
    if (!rgb) continue;
    lines.push(`--channel-${name}: ${value.trim()};`);
    for (const pct of COLOR_VARIANTS[name] ?? []) {
      lines.push(`--channel-${name}-${pct}: rgba(${rgb.join(', ')}, ${pct / 100});`);
    }
  }
  return lines.join('\n');
}
