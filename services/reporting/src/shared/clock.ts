/** Injection token of the clock ("now"); tests give a fixed one to check day and period edges. */
export const CLOCK = 'REPORTING_CLOCK';
export type Clock = () => Date;
export const systemClock: Clock = () => new Date();
