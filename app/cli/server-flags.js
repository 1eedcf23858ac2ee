/**
 * Node's flags for the server process: `npm start` (package.json spells them out, keep the two
 * alike), the demo, the end-to-end tests and the identification benchmark start it with them.
 * --max-semi-space-size=4: V8's young generation grows to 3 x 16 MB by default on a 64-bit machine
 * when a process allocates fast, as the server does while it answers photos; at 4 MB per
 * semi-space the server's peak memory on the benchmark is about 30 MB lower, at the same latency
 * (README, "Figures").
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4'];
