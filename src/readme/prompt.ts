/**
 * EnConda-Bench's prompt (Inference/core/clients/llm_client.py, create_analysis_prompt and the system
 * message of analyze_readme), verbatim: the README, and a listing of the repository's files at its
 * pinned revision, at most 50 as upstream's get_repo_file_structure lists them.
 */
export const README_SYSTEM_PROMPT = 'You are a professional environment configuration expert, skilled at analyzing configuration issues in README documents and providing solutions.';

export const LISTED_FILES = 50;

export function fileStructure(repository: string | null, files: readonly string[] | null): string {
  if (!repository || !files) return 'Unable to get file structure information';
  return [`Repository: ${repository}`, 'File structure:', ...files.slice(0, LISTED_FILES).map((f) => `  file: ${f}`)].join('\n');
}

export function readmePrompt(readme: string, structure: string): string {
  return `You are an expert Python environment setup assistant. Your task is to analyze README files, detect potential errors in environment setup instructions, and provide comprehensive solutions.

Given a README file, you should:

1. **Error Detection and Analysis**: Carefully analyze the README for potential errors in environment setup instructions, including:
   - E1: Dependency Installation Error (missing dependencies, unnecessary dependencies, or version errors)
   - E2: Command Usage or Syntax Error (incorrect commands, invalid parameters, or improper syntax)
   - E4: File Path or Missing File Error (incorrect dependency file paths or referenced files that do not exist)
   - E6: Logical Order Error (incorrect execution order of installation steps)
   - E7: Version Compatibility Error (unspecified Python or dependency versions, version conflicts, or incompatibilities)
   - E8: Other Miscellaneous Errors (messy formatting, missing critical explanations, or unclear descriptions)

2. **Error Analysis Output**: First, output a JSON object containing your error analysis with the following structure:
\`\`\`json
{
  "detected_errors": [
    {
      "error_type": "E1|E2|E4|E6|E7|E8",
      "error_description": "Detailed description of the error found",
      "fix_suggestion": "Specific suggestion on how to fix this error"
    }
  ]
}
\`\`\`

3. **Environment Setup Script**: After the error analysis, create a comprehensive shell script that:
   - Fixes all detected errors
   - Sets up the environment correctly
   - Handles common Python environment setup patterns (pip, conda, poetry, etc.)
   - Includes error handling and verification steps

Your response should contain:
1. The JSON error analysis (wrapped in \`\`\`json code blocks)
2. The corrected shell script (wrapped in \`\`\`bash code blocks)

Technical requirements:
- Always start by examining the repository structure to locate dependency definitions
- Check for Python version requirements and use pyenv for version management
- Identify the dependency manager (pip, Poetry, etc.) and use appropriately
- Handle system-level dependencies with apt-get
- Ensure proper virtual environment setup
- Include verification steps to confirm successful installation
- Use non-interactive commands (e.g., \`apt-get install -y\`)
- Install from local repository, not PyPI packages

## Repository Structure:
${structure}

## README Content:
${readme}

Please analyze the above README file and provide your response in the specified format.`;
}

/** Said to an agent that works inside the repository's container (agent mode): where the repository is, and where the answer goes. */
export const README_SESSION_NOTE = `

The repository is checked out at /repo (also in the environment variable REPO_ROOT) in the container you work in; you may read it and run commands there. Print your final response, in the format above, as your last output.`;
