/** Styles of the site's layout (header, menu, footer, page frame); pages add their own through useSiteStyles. */
export const appCss = /* css */ `
.site { display: grid; grid-template-rows: auto 1fr auto; min-height: 60vh; gap: 0; }
.site-main { display: grid; gap: 16px; padding: 20px 16px 32px; max-width: 1200px; width: 100%; margin: 0 auto; min-width: 0; }
.site.plain .site-main { padding: 0; max-width: none; }
.page-title { font-size: 1.6em; line-height: 1.2; }
.page-title:focus { outline: none; }
.page-title:focus-visible { outline: 2px solid var(--_accent); outline-offset: 4px; }
.message-page { justify-items: start; margin: 24px auto; max-width: 40em; }
.link { background: none; cursor: pointer; text-decoration: underline; padding: 0; }

.site-header {
  display: flex; flex-wrap: wrap; align-items: center; gap: 8px 20px; padding: 10px 16px;
  background: var(--channel-header-background, var(--_surface)); color: var(--channel-header-text-color, inherit);
  border-bottom: 1px solid var(--_line);
}
.brand { display: inline-flex; align-items: center; gap: 10px; text-decoration: none; font-weight: 700; font-size: 1.15em; }
.brand img { height: 36px; width: auto; }
.header-menu { display: flex; flex: 1; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px 20px; }
.menu { display: flex; flex-wrap: wrap; gap: 4px 6px; list-style: none; align-items: center; }
.menu a, .menu .group > button {
  display: inline-flex; align-items: center; gap: 6px; min-height: 36px; padding: 6px 10px; border-radius: 8px;
  text-decoration: none; background: none; cursor: pointer; font-weight: 500;
}
.menu a:hover, .menu .group > button:hover, .menu a[aria-current="page"] { background: var(--channel-body-text-color-10, rgba(0,0,0,.06)); }
.menu a[aria-current="page"] { font-weight: 700; }
.menu .group { position: relative; }
.menu .group > button::after { content: "▾"; font-size: .8em; }
.submenu {
  position: absolute; z-index: 3; top: 100%; left: 0; min-width: 220px; list-style: none; padding: 6px;
  background: var(--channel-background, #fff); border: 1px solid var(--_line); border-radius: 8px;
  box-shadow: 0 8px 24px rgba(0,0,0,.14);
}
.submenu[hidden] { display: none; }
.submenu a { display: flex; width: 100%; }
.menu-icon { width: 20px; height: 20px; object-fit: contain; border-radius: 50%; }
.account { display: flex; flex-wrap: wrap; align-items: center; gap: 10px; }
.account a { font-weight: 600; }
.language select { min-height: 34px; padding: 4px 8px; border: 1px solid var(--_line); border-radius: 8px; background: transparent; }
.menu-toggle {
  display: none; margin-left: auto; min-height: 40px; padding: 6px 12px; border: 1px solid var(--_line);
  border-radius: 8px; background: transparent; cursor: pointer; font-weight: 600;
}
@media (max-width: 760px) {
  .menu-toggle { display: inline-flex; align-items: center; gap: 6px; }
  .header-menu { display: none; flex-basis: 100%; flex-direction: column; align-items: stretch; }
  .header-menu.open { display: flex; }
  .menu { flex-direction: column; align-items: stretch; }
  .submenu { position: static; box-shadow: none; border: 0; padding-left: 16px; }
  .account { padding-top: 8px; border-top: 1px solid var(--_line); }
  .site-main { padding: 14px 10px 24px; }
}

.site-footer {
  display: flex; flex-wrap: wrap; gap: 12px 32px; padding: 20px 16px; font-size: .92em;
  background: var(--channel-footer-background-20, var(--_surface)); border-top: 1px solid var(--_line);
}
.footer-links, .static-block { list-style: none; display: flex; flex-wrap: wrap; gap: 6px 16px; }
.static-block { color: var(--_muted); }
.site-footer a { overflow-wrap: anywhere; }
`;
