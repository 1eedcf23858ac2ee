/**
 * Node's flags for the server process: `npm start` (package.json spells them out, keep the two
 * alike), the demo, the end-to-end tests and the identification benchmark start it with them.
 * --max-semi-space-size=4: V8's young generation grows to 3 x 16 MB by default on a 64-bit machine
 * when a process allocates fast, as the server does while it answers photos; at 4 MB per
 * semi-space the server's peak memory on the benchmark is about 30 MB lower, at the same latency
 * (README, "Memory").
 * --heap-growing-percent=100: after each full collection V8 lets the old generation grow to about 1.2
 * times what survived, and with a young generation of 3 x 4 MB that left less room than the young
 * generation holds, so V8 started marking again at once: a full collection about every photo, each
 * freeing 1-4 MB of a 53 MB heap, 12-14 ms of the main thread a photo. 60 (room for 1.6 times) gave
 * one every five photos: p50 -11 ms at 300 pins. Since OpenCV is loaded lean (opencv.server.ts),
 * 22 MB of its package's text no longer count as live heap in each thread, and at 60 the room left
 * shrank with them: photos took 10-13 ms longer. 100 gives the room back, for about 40-50 MB less memory
 * than the package's loading at 60 and about the same CPU a photo (app/services/identification/README.md,
 * "Threads and memory"); 150 was a few ms faster but peaked 23 MB higher at 5,000 pins.
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=4', '--heap-growing-percent=100'];
