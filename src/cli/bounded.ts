/**
 * Set in the process `fds build` starts again with its heap flags (build-heap.ts). bin/fds.js names it
 * too: it runs before any module can be imported.
 */
export const BOUNDED = 'FDS_BUILD_HEAP';

/** Whether this is the build's process with the bounded heap. */
export const inBoundedBuild = (): boolean => !!process.env[BOUNDED];
