/** Styles of `<channel-schedule>`. */
export const scheduleCss = /* css */ `
.head { display: flex; flex-wrap: wrap; align-items: baseline; justify-content: space-between; gap: 8px 16px; margin-bottom: 12px; }
.title { font-size: 1.35em; font-weight: 700; line-height: 1.2; }
.count { color: var(--_muted); font-size: .9em; }
.day { margin-bottom: 12px; color: var(--_muted); }
.block { display: grid; gap: 12px; }
.block { margin-bottom: 12px; }
.grid .block { grid-template-columns: repeat(auto-fill, minmax(min(100%, var(--channel-card-min-width, 250px)), 1fr)); }
.item { position: relative; min-width: 0; }
.card {
  display: block; height: 100%; padding: 14px 46px 14px 14px;
  border-radius: var(--_radius); background: var(--channel-card-background, var(--_surface));
  border: 1px solid var(--_line); text-decoration: none; color: inherit;
}
.card:hover { border-color: var(--_accent); }
.card > * + * { margin-top: 6px; }
/* The picture: a 16:9 box, edge to edge at the card's top (a thumbnail in a list), the live badge over it. */
.pic {
  position: relative; display: grid; grid-auto-flow: column; place-content: center; align-items: center; gap: 6%;
  aspect-ratio: 16 / 9; margin: -14px -46px 0 -14px; overflow: hidden; border-radius: var(--_radius) var(--_radius) 0 0;
  container-type: inline-size;
  background: linear-gradient(135deg, var(--_line), var(--channel-card-background, var(--_surface)));
}
.pic > img, .pic .preview { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; }
.pic .preview { background: #000; }
.pic .team {
  display: grid; place-items: center; width: 26cqi; aspect-ratio: 1; border-radius: 50%; padding: 1.3cqi;
  background: var(--_team, var(--_line)); box-shadow: 0 0 0 2px #fff;
}
.pic .team img { width: 100%; height: 100%; object-fit: contain; }
.pic .abbr {
  color: #fff; font-weight: 800; font-size: .85em; overflow-wrap: anywhere; text-align: center;
  background: rgba(0,0,0,.6); padding: .1em .35em; border-radius: 4px;
}
.pic .at { font-weight: 800; color: var(--_muted); }
.pic .badge.live { position: absolute; top: 8px; left: 8px; }
.item > .star { background: var(--channel-card-background, var(--_surface)); }
.list .card { display: grid; grid-template-columns: 112px minmax(120px, 180px) 1fr auto; align-items: center; gap: 4px 16px; }
.list .card > * + * { margin-top: 0; }
.list .card .pic { grid-row: 1 / span 2; margin: 0; border-radius: 8px; }
.list .card .when { grid-row: 1 / span 2; }
/* A narrow list (a phone, a CMS sidebar): the thumbnail beside the rest, one column. */
.list { container-type: inline-size; }
@container (max-width: 520px) {
  .list .card { grid-template-columns: 88px 1fr; }
  .list .card .pic { grid-row: 1 / -1; }
  .list .card .when { grid-row: auto; }
}
.meta { display: block; font-size: .8em; color: var(--_muted); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.name { display: block; font-size: 1.05em; font-weight: 650; line-height: 1.3; overflow-wrap: anywhere; }
.when { display: block; font-size: .9em; }
.when > span { display: block; }
.when .venue { color: var(--_muted); font-size: .9em; }
.badges { display: block; line-height: 1.9; }
.badge + .badge { margin-inline-start: 6px; }
.badge {
  display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: .75em; font-weight: 700; line-height: 1.5;
  text-transform: uppercase; letter-spacing: .04em; background: var(--_line); color: inherit;
}
.badge.live { background: var(--_live); color: #fff; }
.badge.free { background: var(--channel-free, #d9f2e1); color: #0f5129; }
.badge.paid, .badge.ppv { background: var(--channel-paid, #fdecc8); color: #5c3b00; }
.badge.register { background: #dfe9fb; color: #173e87; }
.badge.purchased { background: var(--_accent); color: var(--_accent-text); }
.star {
  position: absolute; top: 8px; right: 8px; width: 34px; height: 34px; border-radius: 50%;
  display: grid; place-items: center; cursor: pointer; background: transparent; color: var(--_muted); font-size: 1.25em; line-height: 1;
}
.star:hover { color: var(--_accent); background: var(--_line); }
.star[aria-pressed="true"], .star.on { color: var(--channel-favourite, #e0a800); }
td.actions { position: relative; }
table { width: 100%; border-collapse: collapse; font-size: .95em; }
th, td { text-align: start; padding: 8px 10px; border-bottom: 1px solid var(--_line); vertical-align: middle; }
th { font-size: .8em; color: var(--_muted); font-weight: 600; }
td .star { position: static; }
/* In a table the details wrap, so on a phone the table narrows to the element instead of widening the page. */
td .meta { white-space: normal; }
td a { font-weight: 600; }
.more { display: flex; justify-content: center; padding: 14px 0 4px; }
.skeleton { list-style: none; display: grid; gap: 12px; grid-template-columns: repeat(auto-fill, minmax(min(100%, 250px), 1fr)); }
.skeleton li { height: 118px; border-radius: var(--_radius); background: linear-gradient(90deg, var(--_surface), var(--_line), var(--_surface)); background-size: 200% 100%; animation: shimmer 1.2s linear infinite; }
@keyframes shimmer { to { background-position: -200% 0; } }
@media (prefers-reduced-motion: reduce) { .skeleton li { animation: none; } }
`;
