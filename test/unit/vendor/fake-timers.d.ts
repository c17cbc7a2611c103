// Types of the generated module next to this file: those of @sinonjs/fake-timers.
import type * as FakeTimers from '@sinonjs/fake-timers';

declare const fakeTimers: typeof FakeTimers;
export default fakeTimers;
