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
 *
 * Convergence (self-stabilization), with -DCONVERGE (see
 * spin_convergence_test.go): from every one of the K^N configurations,
 * every execution under the central daemon, with no fairness assumption,
 * reaches a legitimate configuration, one with exactly one privileged
 * process (`legit` below). Build and run:
 *   spin -DN=8 -DK=8 -DCONVERGE -a dijkstra.pml
 *   gcc -O2 -DNOREDUCE -DMEMLIM=16000 -o pan pan.c     (no -DSAFETY, -DNOCOMP)
 *   ./pan -a -m100000 -w25                               (no -f: no fairness)
 * errors: 0 means the ring converges from every configuration; otherwise pan
 * reports an "acceptance cycle" and its trail is an execution that starts
 * from some configuration and never reaches a legitimate one: a cycle of
 * illegitimate configurations (or a deadlock in one, which pan reports the
 * same way as an "accept stutter"; the ring has none).
 *
 * The property is the LTL formula  <> (started && legit),  where `started`
 * is set by the last statement of init's atomic sequence. Its negation has a
 * one-state never claim, an accepting self-loop guarded by
 * !(started && legit), so:
 *   - pan -a reports exactly the runs that never reach a legitimate
 *     configuration after init: "every execution reaches legit", the
 *     definition ringcheck checks (not "legit infinitely often").
 *   - The init phase neither masks nor creates violations. Without
 *     `started`, the all-zero configuration x starts in (legitimate: only
 *     the root is privileged) would satisfy <> legit before init chose
 *     anything. And init's choice tree has no cycle, so no accepting cycle
 *     can lie inside it; every cycle pan can report is a cycle of ring moves
 *     after init.
 *   - The claim blocks once started && legit holds, which prunes the search
 *     at legitimate configurations (they are stored but not expanded), and
 *     the claim has a single state, so pan stores exactly the K^N + 1 states
 *     of the safety search (K^N configurations plus the pre-init state); the
 *     nested (cycle-finding) depth-first search visits them a second time,
 *     which pan reports as "(2*(K^N+1) visited)".
 * This is the cheapest of the correct encodings measured at N=7, K=7
 * (823,543 configurations, pan -a/-l -m100000 -w20, same machine):
 *   <> (started && legit), pan -a:         823,544 stored, 3.9 s,  64 MB
 *   [] (started -> <> legit), pan -a:    1,367,150 stored, 6.2 s,  97 MB
 *   non-progress cycles, -DNP, pan -l:   1,647,087 stored, 7.3 s, 114 MB
 * [] (started -> <> legit) ("legit infinitely often"; equivalent here
 * because legitimacy is closed in Dijkstra's ring) needs a two-state claim
 * that nondeterministically guesses when []!legit starts, so the product
 * nearly doubles. The non-progress variant halts the ring at legitimate
 * configurations (a !legit conjunct in each guard, so that no progress
 * label is needed and every cycle is a non-progress cycle), but SPIN's
 * built-in np_ claim also has two states (nearly doubling the product), and
 * with -DNP pan neither checks invalid end states nor stutters at a
 * deadlock, so a deadlock in an illegitimate configuration would go
 * unreported.
 *
 * `legit` is written as a macro over x[]: the root's privilege plus one
 * term per process i > 0, summed with the S<n> macros below (the
 * preprocessor cannot loop), so CONVERGE supports N <= 16. The ring
 * processes and the choice of configurations are the same as in the safety
 * mode; CONVERGE only adds the `started` bit, its assignment at the end of
 * init's atomic sequence (not a stored state) and the ltl claim. Without
 * CONVERGE the model is the safety/deadlock twin described above, unchanged.
 */

#ifndef N
#define N 5
#endif
#ifndef K
#define K 5
#endif

byte x[N];

/*
 * The number of privileged processes: the root's privilege plus S<N>, the
 * number of processes i in 1..N-1 with x[i] != x[i-1].
 */
#define priv(i) (x[i] != x[i-1])
#define S1 0
#define S2 priv(1)
#define S3 (S2 + priv(2))
#define S4 (S3 + priv(3))
#define S5 (S4 + priv(4))
#define S6 (S5 + priv(5))
#define S7 (S6 + priv(6))
#define S8 (S7 + priv(7))
#define S9 (S8 + priv(8))
#define S10 (S9 + priv(9))
#define S11 (S10 + priv(10))
#define S12 (S11 + priv(11))
#define S13 (S12 + priv(12))
#define S14 (S13 + priv(13))
#define S15 (S14 + priv(14))
#define S16 (S15 + priv(15))
#define PASTE(a, b) a##b
#define XPASTE(a, b) PASTE(a, b)
#define privileged ((x[0] == x[N-1]) + XPASTE(S, N))
/* A configuration is legitimate iff exactly one process is privileged. */
#define legit (privileged == 1)

#ifdef CONVERGE
#if N > 16
#error "CONVERGE: the legit macro supports N <= 16"
#endif
/* Set by init's last step: the ring is in its chosen configuration. */
bit started;
/* Every execution, after init, reaches a legitimate configuration. */
ltl converge { <> (started && legit) }
#endif

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
#ifdef CONVERGE
		;
		started = 1
#endif
	}
}
