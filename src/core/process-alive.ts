// Whether a process still exists, for files that name their owner's pid (session markers, temp-file journals,
// the checkpoint store's lock): a file whose owner is gone was left by a crash.

/** True while a process with this id exists (EPERM: it exists, owned by another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
