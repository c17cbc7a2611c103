/** Whether the viewer asked the system for less motion: carousels hold still, cards play no preview. */
export function prefersReducedMotion(): boolean {
  return typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
}
