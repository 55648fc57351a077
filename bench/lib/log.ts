const start = Date.now();
export function log(message: string): void {
  if (process.env.BENCH_QUIET) return;
  console.error(`  [${((Date.now() - start) / 1000).toFixed(1)}s] ${message}`);
}
