import type { DetectedError, ReadmeInstanceRef } from '../../../src/domain/readme';
import { referenceData } from '../../helpers/data';

/** shared/data/enconda: the EnConda-Bench data set. */
export const encondaDir = () => referenceData('data', 'enconda');

/** Real instances the tests use, with what their gold holds (checked in dataset.test.ts). */
export const BASE: ReadmeInstanceRef = { name: 'jaraco_inflect_error_readme_1', repoFolder: 'error_gen_jaraco_inflect', repo: 'jaraco_inflect' };
export const ONLY_E1: ReadmeInstanceRef = { ...BASE, name: 'jaraco_inflect_error_readme_1_only_E1' };
export const ONLY_E2: ReadmeInstanceRef = { ...BASE, name: 'jaraco_inflect_error_readme_1_only_E2' };
/** Its gold is `readme.json`, lowercase. */
export const LOWERCASE: ReadmeInstanceRef = { name: 'm-o-a-t_moat-mqtt_error_readme_1', repoFolder: 'error_gen_m-o-a-t_moat-mqtt', repo: 'm-o-a-t_moat-mqtt' };
/** level0: no errors. */
export const LEVEL0: ReadmeInstanceRef = { name: 'scikit-rf_scikit-rf_error_readme_2', repoFolder: 'error_gen_scikit-rf_scikit-rf', repo: 'scikit-rf_scikit-rf' };

export const err = (error_type: string, fix_suggestion: string, error_description = 'some description'): DetectedError => ({ error_type, error_description, fix_suggestion });

/**
 * A small prediction set over those five, whose scores are worked out by hand in scoring.test.ts.
 * BASE gold: E1 `pip install inflect`, E2 `print(...)`. ONLY_E1 gold: E1. ONLY_E2 gold: E2 (no answer).
 * LOWERCASE gold: E2 `$ pip install moat-mqtt`, E8 `.. _Read the Docs: http://moat-mqtt.readthedocs.org/`. LEVEL0: none.
 */
export const SMALL_PREDICTIONS: [ReadmeInstanceRef, DetectedError[] | null][] = [
  [BASE, [err('E1', '`pip install inflect`'), err('E4', 'x'), err('E1', 'pip install inflection')]],
  [ONLY_E1, [err('E2', 'pip install inflect')]],
  [ONLY_E2, null],
  [LOWERCASE, [err('E2', '$ pip install moat_mqtt'), err('E8', "'.. _Read the Docs: http://moat-mqtt.readthedocs.org/'"), err('E8', 'other')]],
  [LEVEL0, [err('E8', 'something')]],
];
