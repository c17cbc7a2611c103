/** Styles of `<channel-checkout>` (on top of the shared base styles; adopted sheets, no inline styles). */

/** The modal dialog (checkout's failure popup, the profile's cancel-renewal confirmation). */
export const dialogCss = /* css */ `
.dialog {
  margin: auto; max-width: min(440px, 92vw); padding: 20px; border-radius: var(--_radius); border: 1px solid var(--_line);
  background: var(--channel-popover-background, #fff); color: var(--channel-text, #16181d); display: grid; gap: 12px;
}
.dialog:not([open]) { display: none; }
.dialog::backdrop { background: rgba(11, 13, 18, .55); }
.dialog-title { font-size: 1.15em; font-weight: 700; }
`;

export const checkoutCss = /* css */ `
.checkout { display: grid; gap: 14px; max-width: var(--channel-checkout-max-width, 640px); }
.step { display: grid; gap: 14px; }
.step-title { font-size: 1.3em; font-weight: 700; line-height: 1.25; }
.step-title:focus { outline: none; }
.step-title:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.kind { font-size: .78em; text-transform: uppercase; letter-spacing: .05em; color: var(--_muted); }
.offers { list-style: none; display: grid; gap: 10px; grid-template-columns: repeat(auto-fill, minmax(min(100%, 220px), 1fr)); }
.offer {
  display: grid; gap: 6px; align-content: start; padding: 14px 16px; border-radius: var(--_radius);
  background: var(--channel-card-background, var(--_surface)); border: 1px solid var(--_line);
}
.offer-name { font-size: 1.05em; font-weight: 650; }
.offer-price { font-weight: 650; }
.offer .btn { justify-self: start; margin-top: 4px; }
.badge {
  justify-self: start; display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: .78em; font-weight: 700;
  line-height: 1.6; background: var(--_line); color: inherit;
}
.badge.trial { background: var(--channel-success-background, #e6f4ea); color: var(--channel-success, #14532d); }
.badge.purchased { background: var(--_accent); color: var(--_accent-text); }
.field { display: grid; gap: 4px; }
.field label, .label, legend { font-size: .9em; font-weight: 600; }
.field input, .field select {
  width: 100%; min-height: 40px; padding: 8px 10px; border: 1px solid var(--_line); border-radius: 8px;
  background: var(--channel-input-background, #fff); color: var(--channel-input-text, #16181d); font-size: 1em;
}
.field input[aria-invalid="true"], .field select[aria-invalid="true"] { border-color: var(--channel-error, #b3261e); }
.inline { display: flex; gap: 8px; align-items: center; }
.inline input { flex: 1; }
.breakdown { display: grid; gap: 6px; padding: 12px 14px; border-radius: var(--_radius); background: var(--_surface); border: 1px solid var(--_line); }
.breakdown > div { display: flex; justify-content: space-between; gap: 12px; }
.breakdown dd { font-variant-numeric: tabular-nums; }
.breakdown .total-row { border-top: 1px solid var(--_line); padding-top: 6px; font-weight: 700; font-size: 1.05em; }
.terms { list-style: none; display: grid; gap: 4px; color: var(--_muted); font-size: .9em; }
.error, .field-error { color: var(--channel-error, #b3261e); font-weight: 600; font-size: .92em; }
.ok { color: var(--channel-success, #14532d); font-size: .92em; }
fieldset { display: grid; gap: 8px; }
.choice {
  display: flex; gap: 10px; align-items: center; padding: 10px 12px; border: 1px solid var(--_line); border-radius: 8px; cursor: pointer;
}
.choice input { width: 18px; height: 18px; accent-color: var(--_accent); }
.check { display: flex; gap: 8px; align-items: center; font-size: .92em; }
.check input { width: 18px; height: 18px; accent-color: var(--_accent); }
.new-card { display: grid; gap: 8px; }
.card-field { display: grid; min-height: 40px; }
::slotted([slot="card"]) {
  display: block; padding: 10px; border: 1px solid var(--_line); border-radius: 8px;
  background: var(--channel-input-background, #fff); color: var(--channel-input-text, #16181d);
}
.secure { color: var(--_muted); font-size: .88em; }
.actions { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; }
.link { background: none; padding: 2px 0; cursor: pointer; color: var(--_accent); text-decoration: underline; font-size: .95em; }
.status { display: flex; gap: 10px; align-items: center; }
.spinner {
  width: 22px; height: 22px; border-radius: 50%; border: 3px solid var(--_line); border-top-color: var(--_accent);
  animation: spin .9s linear infinite;
}
@keyframes spin { to { transform: rotate(360deg); } }
@media (prefers-reduced-motion: reduce) { .spinner { animation: none; } }
${dialogCss}
`;
