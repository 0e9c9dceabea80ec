/**
 * Preloaded into a server process with `node --import`: shifts its clock (Date only; timers run
 * as usual) by FAKE_CLOCK_OFFSET_MS, so a test can start the app a few seconds before Chicago's
 * midnight. Plain JavaScript: a subclass of Date is awkward to type.
 */
const offset = Number(process.env.FAKE_CLOCK_OFFSET_MS ?? 0);
const RealDate = Date;

class ShiftedDate extends RealDate {
  constructor(...args) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...args);
  }

  static now() {
    return RealDate.now() + offset;
  }
}

globalThis.Date = ShiftedDate;
