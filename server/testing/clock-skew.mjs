/**
 * Tests only: loaded with `--import` into a server process (multiprocess.test.ts), it makes that process's clock run
 * TEST_CLOCK_SKEW_MS ahead of the machine's, as a host whose clock is wrong would: `Date.now()` and `new Date()`.
 */
const skew = Number(process.env.TEST_CLOCK_SKEW_MS ?? 0);
const RealDate = Date;
const realNow = RealDate.now.bind(RealDate);

class SkewedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(realNow() + skew);
    else super(...args);
  }

  static now() {
    return realNow() + skew;
  }
}

globalThis.Date = SkewedDate;
