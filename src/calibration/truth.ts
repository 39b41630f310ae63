import { z } from 'zod';
import { BREAK_KINDS } from '../domain/confirmation/detail';
import { LANGUAGES } from '../domain/instance';

/**
 * The known truth of one calibration project (test/fixtures/calibration/<language>/<project>/expected.json,
 * docs/ecosystems.md, "Tracer calibration"). Names are written as envgap writes the layer they belong to
 * (PEP 503 for Python, npm names as written, artifactIds, C++ library names; Debian packages of apt.txt as
 * written).
 *
 * - `declared`: D1 exactly.
 * - `installed`: names D2 must hold and must not hold.
 * - `run`: what the program's run really used: its code or data was loaded, read or executed, wherever it
 *   was put (an imported module, a loaded class or shared object, a data file read by path, a header-only
 *   template or static library compiled into the program). `unused`: names that the run did not use.
 *   `complete`: `used` lists every package the run used, so any other name in D3 is a false positive;
 *   otherwise only the names listed are judged.
 * - `build`: what the build used and did not (judged on the names listed only), for D3-build.
 * - `declared_as`: a declared name whose package goes by another name in the run's layer (a Maven
 *   relocation, CMake's `ZLIB` that is `libz`): D1 name -> run name; without it the name is the same.
 * - `confirmation`: what removing each declared name from the manifest does (issue 26 item 1):
 *   `needed` when the build or the run then breaks, `unneeded` when both still succeed alike.
 *   `confirmation_broke`: how each `needed` phantom's removal breaks the project (install-failed,
 *   build-failed, run-exit-differs, output-differs), as the confirmation's `broke` says it.
 * - `known`: where envgap is wrong today: the layer, the name, what envgap gives (`present` or
 *   `absent`) instead of the truth, and why. `phantoms` is the derived set the metrics count, D1 names
 *   not in D3; its truth is the declared names whose package (under its run name) the run did not use.
 * - `depends_on`: a change that the expectations here assume (they are the truth, and fail until it lands).
 * - `coverage`: the project's own code, counted by hand as the run's coverage counts it (JavaScript: lines
 *   of code; Python: statements; Java: lines with code, JaCoCo's, in the source files that have one; C++: lines with code, gcov's, of the project's sources), and how much of it the run executed; absent where envgap measures none.
 */
export const KnownLimitation = z.object({
  layer: z.enum(['declared', 'installed', 'traced', 'traced_build', 'phantoms']),
  name: z.string().min(1),
  envgap: z.enum(['present', 'absent']),
  reason: z.string().min(1),
});
export type KnownLimitation = z.infer<typeof KnownLimitation>;

export const CalibrationCase = z.object({
  id: z.string().regex(/^[a-z0-9-]+$/),
  about: z.string().min(1),
  names: z.array(z.string().min(1)),
  depends_on: z.string().min(1).optional(),
});
export type CalibrationCase = z.infer<typeof CalibrationCase>;

const Judged = z.object({ used: z.array(z.string().min(1)), unused: z.array(z.string().min(1)).default([]) });

export const CalibrationTruth = z
  .object({
    language: z.enum(LANGUAGES),
    about: z.string().min(1),
    declared: z.array(z.string().min(1)),
    installed: z.object({ includes: z.array(z.string().min(1)), excludes: z.array(z.string().min(1)).default([]) }),
    run: Judged.extend({ complete: z.boolean() }),
    build: Judged.optional(),
    declared_as: z.record(z.string(), z.string()).default({}),
    confirmation: z.record(z.string(), z.enum(['needed', 'unneeded'])),
    confirmation_broke: z.record(z.string(), z.enum(BREAK_KINDS)).default({}),
    cases: z.array(CalibrationCase).min(1),
    known: z.array(KnownLimitation).default([]),
    coverage: z
      .object({ total: z.number().int().nonnegative(), executed: z.number().int().nonnegative(), files: z.number().int().nonnegative(), files_executed: z.number().int().nonnegative() })
      .optional(),
  })
  .superRefine((t, ctx) => {
    const problem = (message: string) => ctx.addIssue({ code: 'custom', message });
    for (const name of t.run.used) if (t.run.unused.includes(name)) problem(`run: ${name} is both used and unused`);
    for (const name of t.build?.used ?? []) if (t.build!.unused.includes(name)) problem(`build: ${name} is both used and unused`);
    for (const name of Object.keys(t.confirmation)) if (!t.declared.includes(name)) problem(`confirmation: ${name} is not declared`);
    for (const name of t.declared) if (!(name in t.confirmation)) problem(`confirmation: no verdict for the declared ${name}`);
    for (const name of Object.keys(t.confirmation_broke)) if (t.confirmation[name] !== 'needed') problem(`confirmation_broke: ${name} is not a needed name`);
    for (const name of Object.keys(t.declared_as)) if (!t.declared.includes(name)) problem(`declared_as: ${name} is not declared`);
    const seen = new Set<string>();
    for (const k of t.known) {
      const key = `${k.layer}:${k.name}`;
      if (seen.has(key)) problem(`known: ${key} twice`);
      seen.add(key);
    }
  });
export type CalibrationTruth = z.infer<typeof CalibrationTruth>;

/** Reads an expected.json's text; throws with the project's name and zod's account of what is wrong. */
export function parseCalibrationTruth(text: string, project: string): CalibrationTruth {
  const parsed = CalibrationTruth.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`calibration ${project}: expected.json is invalid: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
