/**
 * What a suite measured on the way (timings, which instance ran what), for a person reading along:
 * printed with TEST_VERBOSE set, never otherwise, so that a green run stays quiet.
 */
export function report(...values: unknown[]): void {
  if (process.env.TEST_VERBOSE) console.log(...values);
}
