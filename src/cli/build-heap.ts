/**
 * V8 flags `fds build` runs with. A build's live memory is small and does not grow with the store
 * (plans stream, bodies are held only in flight, rule candidates are spooled to disk), but on a
 * machine with much memory V8 lets a busy heap fill with garbage toward gigabytes before it collects;
 * a heap sized for what the build holds keeps its peak RSS flat. bin/fds.js starts the build with them.
 */
export const BUILD_HEAP_FLAGS = ['--max-old-space-size=128', '--max-semi-space-size=4'];
