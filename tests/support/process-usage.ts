import fs from 'node:fs';

/** A process's resident memory now and at its peak (MB), from /proc (Linux); null when it is gone. */
export function memoryOf(pid: number): { rssMb: number; peakMb: number } | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rssMb: Math.round(kb('VmRSS') / 1024), peakMb: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}

/** /proc counts CPU time in USER_HZ ticks, 100 a second on Linux whatever the kernel's own tick. */
const TICKS_PER_SECOND = 100;

/**
 * The CPU time a process has used so far, all its threads (user + system, ms), from /proc (Linux);
 * null when it is gone. The difference of two readings is the CPU a stretch of work took: unlike
 * wall time it does not count waiting for the CPU, nor work that other processes do meanwhile.
 */
export function cpuMsOf(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // after the command name (in parentheses, which may hold spaces): state is field 3, utime 14, stime 15
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
