/*
 * dijkstra.pml: Promela twin of specs/dijkstra/dijkstra.go, for comparing
 * ringcheck's throughput with SPIN's (see spin_bench_test.go).
 *
 * Dijkstra's K-state self-stabilizing token ring (CACM 17(11), 1974) on a
 * unidirectional ring of N processes, each with one variable x[i] in 0..K-1
 * that reads its predecessor's. Process 0 is the root:
 *
 *   root:   privileged iff x[0] == x[N-1];  move x[0] = (x[0]+1) % K
 *   i > 0:  privileged iff x[i] != x[i-1];  move x[i] = x[i-1]
 *
 * Matching the Go spec:
 *   - Central daemon: SPIN's interleaving picks one enabled process per
 *     step; each move is one d_step (guard and assignment indivisible), so a
 *     SPIN transition is exactly one ringcheck step.
 *   - Every configuration has a privileged process, so the ring never
 *     deadlocks: plain `pan` (compiled with -DSAFETY) reports no invalid end
 *     state. The ring processes' loops are not end states, so a deadlock
 *     would be reported.
 *   - Unlike the Go spec's Initial (all zeros), this model starts from ALL
 *     K^N configurations, like ringcheck's "from all" checks: init picks
 *     every x[i] nondeterministically inside one atomic sequence. pan does
 *     not store the intermediate states of an atomic sequence, so the states
 *     stored are exactly K^N + 1: every configuration (with the ring
 *     processes at their loop and init finished) plus the initial state in
 *     which init has not yet run. The choices cannot be a d_step: a d_step
 *     resolves nondeterminism deterministically (first open option), so it
 *     would reach a single configuration.
 *
 * N and K default to 5 and can be set with -D, e.g.
 *   spin -DN=8 -DK=8 -a dijkstra.pml
 * x is a byte array, so K must be at most 256; N is at most 254 processes.
 */

#ifndef N
#define N 5
#endif
#ifndef K
#define K 5
#endif

byte x[N];

/* The root, process 0. */
proctype Root()
{
	do
	:: d_step { x[0] == x[N-1] -> x[0] = (x[0] + 1) % K }
	od
}

/* Process i, 0 < i < N: copies its predecessor's value when it differs. */
proctype Other(byte i)
{
	do
	:: d_step { x[i] != x[i-1] -> x[i] = x[i-1] }
	od
}

init
{
	byte i;
	atomic {
		/*
		 * Start the ring first: processes run inside an atomic sequence
		 * do not move until it ends, and starting them before the choices
		 * keeps the run statements out of the K^N-leaf choice tree.
		 */
		run Root();
		for (i : 1 .. N-1) {
			run Other(i)
		};
		/* x[i] := any value in 0..K-1 (x starts at 0). */
		for (i : 0 .. N-1) {
			do
			:: x[i] < K-1 -> x[i]++
			:: break
			od
		}
		/* i == N here in every branch, so init's last state is one state. */
	}
}
