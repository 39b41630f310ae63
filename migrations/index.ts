import type { Migration } from 'kysely';
import * as initial from './2026-11-30-001-initial';
import * as readiness from './2026-12-01-001-readiness';
import * as readme from './2026-12-01-002-readme';
import * as reresolutions from './2026-12-03-001-reresolutions';

/** Listed by hand (not scanned from disk) so the same set runs from src under jest and from dist. */
export const migrations: Record<string, Migration> = {
  '2026-11-30-001-initial': initial,
  '2026-12-01-001-readiness': readiness,
  '2026-12-01-002-readme': readme,
  '2026-12-03-001-reresolutions': reresolutions,
};
