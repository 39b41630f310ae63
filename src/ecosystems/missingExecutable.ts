/** A shell's word for a command it could not find (`sh: 1: nmap: not found`, `bash: line 1: convert: command not found`). */
export const SHELL_COMMAND_NOT_FOUND = /^(?:\/bin\/)?(?:sh|bash|dash): (?:\d+: )?(?:line \d+: )?[^\s:/]+: (?:command )?not found$/m;
