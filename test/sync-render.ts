/**
 * Injected into every test bundle of the web test runner (web-test-runner.config.mjs). The element tests drive a
 * viewer's steps one after another in one task (type, type, click), which a browser never does: each real input or
 * click is a task of its own, and Preact renders what it changed in the microtasks after it, before the next one.
 * So a change made while an event is dispatched renders at once (what a viewer's separate steps get), and everything
 * else as Preact does. Effects run right after their render rather than after the next frame: the tests' steps do not
 * wait for frames.
 */
import { options } from 'preact';

const later = (render: () => void) => void Promise.resolve().then(render);
/** An event handler of ours ran in this task (`window.event` is not set for targets in shadow roots). */
let handling = false;
const previousEvent = options.event;
options.event = (event) => {
  if (!handling) queueMicrotask(() => (handling = false));
  handling = true;
  return previousEvent ? previousEvent(event) : event;
};
let rendering = false;
options.debounceRendering = (render) => {
  if (rendering || !handling) return later(render);
  rendering = true;
  try {
    render();
  } finally {
    rendering = false;
  }
};
options.requestAnimationFrame = (flush) => queueMicrotask(flush);
