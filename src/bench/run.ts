/** Runs a benchmark's main and exits with its outcome (0, or 1 after printing the error). */
export function runBench(main: () => Promise<void>): void {
  main().then(
    () => process.exit(0),
    (err) => {
      console.error(err);
      process.exit(1);
    },
  );
}
