/** Attribute helpers shared by the elements. */

/** A value that was ignored, to tell the page author. */
export interface AttributeNotice {
  name: string;
  value: string;
  expected: string;
}

/** A present boolean attribute is true unless it says "false" (r2wc hands an empty value as ''). */
export function boolAttr(value: string | undefined): boolean {
  return value !== undefined && value !== null && value.trim().toLowerCase() !== 'false';
}
