// The table clock. Deadlines (the deadline of a turn or of a time bank, the closing time
// of an Ancre window, a snapshot's deadline) are on the server's table clock, and every
// event and snapshot frame carries "now" on that clock: at receipt the seconds
// left are `deadline − now`, and they run down on the page's own monotonic clock from
// there (no guess from the profile's clock, right after a time bank too).

export class TableClock {
  /** `local()`: the page's monotonic clock in seconds (injectable for tests). */
  constructor(local = () => performance.now() / 1000) {
    this.local = local;
    this.offset = null; // table clock minus local clock, seconds
  }

  /** A frame arrived with the table clock's `now` (ignored when absent). */
  sync(now) {
    if (typeof now === "number" && Number.isFinite(now)) this.offset = now - this.local();
  }

  /** The table clock now, as best known (null before the first frame). */
  now() {
    return this.offset === null ? null : this.local() + this.offset;
  }

  /** Seconds left before `deadline` (table clock), never below 0; null if unknown. */
  remaining(deadline) {
    if (deadline === null || deadline === undefined || this.offset === null) return null;
    return Math.max(0, deadline - this.now());
  }
}
