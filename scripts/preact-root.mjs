// React 18's `createRoot` (react-dom/client) on Preact, for the build and the browser tests (rollup.config.mjs
// reactOnPreact, web-test-runner.config.mjs). preact/compat's own clears the container at the first render (as React's
// legacy `render` did), and Preact's `render` takes the nodes already there as its own to reuse or remove. React 18's
// root leaves them where they are, and the player relies on it: the loader's early video may already play in the
// player's shadow root (src/lib/early-video.ts), and the stage adopts it with its focus, sound and full screen. So
// Preact renders into a stand-in for the container that shows it none of the nodes it did not put there.
import { render } from 'preact';
import 'preact/compat';

/** The container as Preact sees it: empty at first, every change made to the container itself. */
function standIn(container) {
  return {
    nodeType: 1,
    namespaceURI: container.namespaceURI,
    firstChild: null,
    childNodes: [],
    insertBefore: (node, before) => container.insertBefore(node, before),
    appendChild: (node) => container.appendChild(node),
    removeChild: (node) => container.removeChild(node),
    contains: (node) => container.contains(node),
  };
}

/** A root over `container`, as React 18's. */
export function createRoot(container) {
  const root = standIn(container);
  return {
    render: (children) => render(children, root),
    unmount: () => render(null, root),
  };
}

export default { createRoot };
