/** Styles of the home page: the carousel and the sections below it. */
export const homeCss = /* css */ `
.home { display: grid; gap: 24px; min-width: 0; }
.carousel { position: relative; border-radius: var(--_radius); overflow: hidden; background: var(--_surface); }
.slides { position: relative; }
.slide[hidden] { display: none; }
.slide a { display: block; color: inherit; text-decoration: none; }
.slide img { display: block; width: 100%; aspect-ratio: 8 / 3; object-fit: cover; background: var(--_line); }
.slide-title {
  position: absolute; left: 0; right: 0; bottom: 0; padding: 28px 18px 14px; font-size: 1.35em; font-weight: 700;
  color: #fff; background: linear-gradient(transparent, rgba(0,0,0,.7)); overflow-wrap: anywhere;
}
.carousel-controls { position: absolute; z-index: 1; top: 10px; right: 10px; display: flex; gap: 6px; }
.carousel-button {
  width: 40px; height: 40px; border-radius: 50%; cursor: pointer; font-size: 1.1em; line-height: 1;
  background: rgba(0,0,0,.6); color: #fff; border: 1px solid rgba(255,255,255,.6);
}
.dots { display: flex; justify-content: center; gap: 6px; padding: 8px; }
.dot { width: 8px; height: 8px; border-radius: 50%; background: var(--_line); }
.dot.current { background: var(--_accent); }
.home-section { min-width: 0; }
.see-all { font-weight: 600; }
@media (max-width: 760px) {
  .slide-title { font-size: 1.05em; padding: 20px 12px 10px; }
  .slide img { aspect-ratio: 16 / 9; }
}
`;
