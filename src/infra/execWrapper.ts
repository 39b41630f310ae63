import type { CgroupCounters, CounterSpan } from '../ecosystems/resourceLimits';

/** The variable that marks every process one exec starts (children inherit it), so that what the main process leaves can be found. */
export const EXEC_MARK = 'ENVGAP_EXEC';

/**
 * The shell around every command (bash, builtins only once the command runs, so that it still works
 * when forks are refused at the pids limit). It reads the cgroup counters, runs the command under
 * coreutils `timeout`, and when the main process has exited (or was killed at the limit) SIGKILLs every
 * process still carrying this exec's mark: a daemonized child that holds stdout no longer keeps the
 * output open, nor the tracer waiting. It then prints its report on stderr (the exit, the counters),
 * which execInContainer takes out of the output. Arguments: the limit, 1 (the command is the main
 * process) or 2 (its first child is), the file on the command's standard input (/dev/null by default),
 * the command.
 */
export const EXEC_WRAPPER = `
mark="${EXEC_MARK}=$${EXEC_MARK}"
limit=$1 depth=$2 input=$3
shift 3
counters() {
  local k v oom=- fail=- peak=- lim=- pmax=- m=/sys/fs/cgroup/memory f
  if [[ -r $m/memory.oom_control ]]; then
    while read -r k v; do [[ $k == oom_kill ]] && oom=$v; done < $m/memory.oom_control
    [[ -r $m/memory.failcnt ]] && read -r fail < $m/memory.failcnt
    [[ -r $m/memory.max_usage_in_bytes ]] && read -r peak < $m/memory.max_usage_in_bytes
    [[ -r $m/memory.limit_in_bytes ]] && read -r lim < $m/memory.limit_in_bytes
  elif [[ -r /sys/fs/cgroup/memory.events ]]; then
    while read -r k v; do case $k in oom_kill) oom=$v ;; max) fail=$v ;; esac; done < /sys/fs/cgroup/memory.events
    [[ -r /sys/fs/cgroup/memory.peak ]] && read -r peak < /sys/fs/cgroup/memory.peak
    [[ -r /sys/fs/cgroup/memory.max ]] && read -r lim < /sys/fs/cgroup/memory.max
  fi
  for f in /sys/fs/cgroup/pids/pids.events /sys/fs/cgroup/pids.events; do
    if [[ -r $f ]]; then
      while read -r k v; do [[ $k == max ]] && pmax=$v; done < $f
      break
    fi
  done
  REPLY="$oom,$fail,$peak,$lim,$pmax"
}
# REPLY: a live child of $1 (whose command name is $2, when given), or empty.
child_of() {
  local p st rest f
  REPLY=
  for p in /proc/[0-9]*; do
    read -r st 2>/dev/null < "$p/stat" || continue
    rest=\${st##*) }
    f=($rest)
    if [[ \${f[1]} == "$1" && \${f[0]} != Z && ( -z $2 || $st == *"($2) "* ) ]]; then
      REPLY=\${p#/proc/}
      return
    fi
  done
}
# Whether process $1 runs the command named $2.
runs() {
  local st
  read -r st 2>/dev/null < "/proc/$1/stat" || return 1
  [[ $st == *"($2) "* ]]
}
alive() {
  local st
  read -r st 2>/dev/null < "/proc/$1/stat" || return 1
  st=\${st##*) }
  [[ \${st:0:1} != Z ]]
}
# SIGKILLs every marked process but this shell, its helpers and the pids given; again until none is left.
sweep() {
  local round p pid kv found
  for round in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
    found=
    for p in /proc/[0-9]*; do
      pid=\${p#/proc/}
      [[ $pid == "$$" || $pid == "$BASHPID" || " $* " == *" $pid "* ]] && continue
      while IFS= read -r -d '' kv; do
        if [[ $kv == "$mark" ]]; then
          kill -9 "$pid" 2>/dev/null
          found=1
          break
        fi
      done 2>/dev/null < "$p/environ"
    done
    [[ -z $found ]] && return
  done
}
# Depth 2: the main process is the tracer's first child. Once it is gone (it exited, or strace has had
# no child for a second: the program ended before it was seen), what it left is killed, and the tracer
# then exits with the program's status.
watch() {
  local top= x= m= idle=0
  while [[ -z $top ]]; do child_of "$$" timeout; top=$REPLY; [[ -z $top ]] && read -r -t 0.02 -u "$tick"; done
  while alive "$top"; do
    if [[ -n $m ]]; then
      # The main process is gone: look again before concluding, strace may have more children.
      alive "$m" || { m=; idle=0; }
    else
      [[ -z $x ]] && { child_of "$top"; x=$REPLY; }
      if [[ -n $x ]]; then
        child_of "$x"
        if [[ -z $REPLY ]]; then
          runs "$x" strace && (( ++idle >= 10 )) && break
        else
          # A child still named strace is one of strace's start-up probes, or the tracee before its
          # exec: not yet the program, but strace is busy.
          idle=0
          runs "$REPLY" strace || m=$REPLY
        fi
      fi
    fi
    read -r -t 0.1 -u "$tick"
  done
  alive "$top" && sweep "$tick_pid" "$top" "$x"
}
counters; before=$REPLY
exec {tick}< <(exec sleep infinity)
tick_pid=$!
watcher=
if [[ $depth == 2 ]]; then watch & watcher=$!; disown "$watcher"; fi
timeout -k 5 "$limit" "$@" < "$input" &
top=$!
wait "$top"
code=$?
[[ -n $watcher ]] && kill -9 "$watcher" 2>/dev/null
sweep "$tick_pid"
kill -9 "$tick_pid" 2>/dev/null
counters; after=$REPLY
printf '\\n<<envgap-exec %s exit=%s before=%s after=%s>>\\n' "$${EXEC_MARK}" "$code" "$before" "$after" >&2
exit "$code"
`;

/** Kills what an exec left when its wrapper did not (it was killed itself): every process with its mark. */
export const EXEC_SWEEP = `
mark="${EXEC_MARK}=$1"
for round in 1 2 3 4 5; do
  found=
  for p in /proc/[0-9]*; do
    pid=\${p#/proc/}
    [[ $pid == "$$" ]] && continue
    while IFS= read -r -d '' kv; do
      if [[ $kv == "$mark" ]]; then kill -9 "$pid" 2>/dev/null; found=1; break; fi
    done 2>/dev/null < "$p/environ"
  done
  [[ -z $found ]] && break
done
true
`;

function parseCounters(text: string): CgroupCounters | null {
  const f = text.split(',');
  if (f.length !== 5) return null;
  const n = (v: string) => (/^\d+$/.test(v) ? Number(v) : null);
  return { oomKills: n(f[0]), memoryFailcnt: n(f[1]), memoryPeakBytes: n(f[2]), memoryLimitBytes: n(f[3]), pidsLimitHits: n(f[4]) };
}

/** Takes the wrapper's report out of the output: the output without it, the exit it reported, the counters. */
export function takeExecReport(output: string, id: string): { output: string; exitCode: number | null; counters: CounterSpan | null } {
  const re = new RegExp(`\\n?<<envgap-exec ${id} exit=(\\d+) before=(\\S+) after=(\\S+)>>\\n?`);
  const m = re.exec(output);
  if (!m) return { output, exitCode: null, counters: null };
  const before = parseCounters(m[2]);
  const after = parseCounters(m[3]);
  return {
    output: output.slice(0, m.index) + output.slice(m.index + m[0].length),
    exitCode: Number(m[1]),
    counters: before && after ? { before, after } : null,
  };
}
