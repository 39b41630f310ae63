import * as fs from 'node:fs';
import * as path from 'node:path';
import { PREVIOUS_FILES_PREAMBLE, RESPONSE_FORMAT, STRUCTURED_OUTPUT_INSTRUCTION } from '../../../src/agents/openaiProtocol';
import { AGENT_OUTPUT_REPAIR_PROMPT_TEMPLATE, REPAIR_PROMPT_TEMPLATE, RUN_FILE_NOTE } from '../../../src/catalog/prompts';

describe('docs/prompts.md', () => {
  const doc = fs.readFileSync(path.resolve(__dirname, '../../../docs/prompts.md'), 'utf8');

  it('quotes the prompts and the structured-output contract verbatim', () => {
    expect(doc).toContain('```text\n' + REPAIR_PROMPT_TEMPLATE + '```');
    expect(doc).toContain('```text\n' + AGENT_OUTPUT_REPAIR_PROMPT_TEMPLATE + '```');
    expect(doc).toContain('```text\n' + RUN_FILE_NOTE + '```');
    expect(doc).toContain('```text\n' + STRUCTURED_OUTPUT_INSTRUCTION + '\n```');
    expect(doc).toContain(PREVIOUS_FILES_PREAMBLE);
    expect(doc).toContain('```json\n' + JSON.stringify(RESPONSE_FORMAT, null, 2) + '\n```');
  });
});
