/** Styles of `<channel-profile>` (on top of the shared base styles; adopted sheets, no inline styles). */
export const profileCss = /* css */ `
.profile { display: grid; gap: 14px; max-width: var(--channel-profile-max-width, 760px); }
.step, .section { display: grid; gap: 12px; }
.step-title { font-size: 1.3em; font-weight: 700; line-height: 1.25; }
.section-title { font-size: 1.1em; font-weight: 700; }
.step-title:focus { outline: none; }
.step-title:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.form { display: grid; gap: 12px; }
.pair { display: grid; gap: 12px; grid-template-columns: repeat(auto-fit, minmax(min(100%, 200px), 1fr)); }
.field { display: grid; gap: 4px; }
.field label, .field .label, legend { font-size: .9em; font-weight: 600; }
.field input:not([type="checkbox"]), .field select {
  width: 100%; min-height: 40px; padding: 8px 10px; border: 1px solid var(--_line); border-radius: 8px;
  background: var(--channel-input-background, #fff); color: var(--channel-input-text, #16181d); font-size: 1em;
}
.field input[aria-invalid="true"], .field select[aria-invalid="true"] { border-color: var(--channel-error, #b3261e); }
.field.check { grid-template-columns: auto 1fr; align-items: center; column-gap: 8px; }
.field.check input { width: 18px; height: 18px; accent-color: var(--_accent); }
.field.check .field-error, .field.check .hint { grid-column: 1 / -1; }
.hint { font-size: .85em; color: var(--_muted); }
.field-error, .form-error { color: var(--channel-error, #b3261e); font-size: .9em; font-weight: 600; }
.form-error { display: grid; gap: 8px; justify-items: start; padding: 10px 12px; border-radius: 8px; border: 1px solid currentColor; background: var(--channel-error-background, #fdecea); }
.form-error:focus { outline: none; }
.form-error:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
.message { padding: 10px 12px; border-radius: 8px; background: var(--channel-success-background, #e6f4ea); color: var(--channel-success, #14532d); }
.notice-box, .banner {
  display: grid; gap: 8px; justify-items: start; padding: 10px 12px; border-radius: 8px;
  background: var(--channel-warning-background, #fff4d6); color: var(--channel-warning, #5c3b00);
}
.group { display: grid; gap: 10px; padding: 12px; border: 1px solid var(--_line); border-radius: 8px; }
.actions { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; }
.link {
  background: none; padding: 2px 0; cursor: pointer; color: var(--_accent); text-decoration: underline;
  font-size: .95em;
}
.switch { font-size: .95em; }
.social { display: grid; gap: 8px; }
.social .btn { width: 100%; }
.or { text-align: center; color: var(--_muted); font-size: .85em; }
.btn.danger { background: var(--channel-error, #b3261e); color: #fff; }
.danger-text { color: var(--channel-error, #b3261e); }
.danger-zone { display: grid; gap: 8px; justify-items: start; padding-top: 12px; border-top: 1px solid var(--_line); }
.confirm { display: grid; gap: 8px; }
.head { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 10px; }
.tabs { display: flex; flex-wrap: wrap; gap: 4px; border-bottom: 1px solid var(--_line); }
.tab {
  padding: 8px 12px; cursor: pointer; background: none; border-bottom: 3px solid transparent; color: var(--_muted);
  font-weight: 600; margin-bottom: -1px;
}
.tab[aria-selected="true"] { color: inherit; border-bottom-color: var(--_accent); }
.tab:hover { color: inherit; }
.tab-panel { padding-top: 4px; }
.rows { list-style: none; display: grid; gap: 10px; }
.row {
  display: grid; gap: 2px 12px; grid-template-columns: 1fr auto; padding: 12px 14px; border-radius: var(--_radius);
  background: var(--channel-card-background, var(--_surface)); border: 1px solid var(--_line);
}
.row > * { grid-column: 1; }
.row > .badge, .row > .row-price { grid-column: 2; justify-self: end; }
.row-kind { font-size: .78em; text-transform: uppercase; letter-spacing: .05em; color: var(--_muted); }
.row-name { font-weight: 650; }
.row-price { font-weight: 650; }
.badge {
  display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: .78em; font-weight: 700; line-height: 1.6;
  background: var(--_line); color: inherit; white-space: nowrap;
}
.badge[data-status="paid"], .badge[data-status="active"], .badge[data-status="done"] { background: #d9f2e1; color: #0f5129; }
.badge[data-status="failed"] { background: #fbdedc; color: #8c1d18; }
.badge[data-status="refunded"], .badge[data-status="inactive"] { background: #eceef2; color: #3d4350; }
.block { display: block; }
.table { width: 100%; border-collapse: collapse; font-size: .95em; }
.table th, .table td { text-align: start; padding: 8px 10px; border-bottom: 1px solid var(--_line); vertical-align: top; }
.table th { font-size: .8em; color: var(--_muted); font-weight: 600; }
.empty { color: var(--_muted); }
.facts { display: grid; gap: 12px; grid-template-columns: repeat(auto-fit, minmax(min(100%, 220px), 1fr)); }
.facts h4 { font-size: .9em; font-weight: 700; margin-bottom: 4px; }
.capabilities, .counts { padding-inline-start: 18px; display: grid; gap: 2px; }
.value { font-weight: 600; }
`;
