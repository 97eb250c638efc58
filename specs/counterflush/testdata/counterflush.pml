/*
 * counterflush.pml: Promela twin of specs/counterflush/counterflush.go
 * (Varghese's counter flushing, token-passing encoding), checked against
 * ringcheck by spin_test.go.
 *
 * N processes on a unidirectional ring (default 3, -DN, 2 <= N <= 6), FIFO
 * channel ch[i] from i to i+1 mod N of capacity CMAX (default 1, -DCMAX),
 * counters C[i] in 0..M-1 with M = N*(CMAX+1). A message is its counter
 * value (the only message type, Token(c), reduced to the byte c).
 *
 *   root:  receive c from ch[N-1]: c == C[0] -> accept: C[0] = C[0]+1 mod M,
 *                                               send C[0] on ch[0]
 *                                  c != C[0] -> ignore (just receive)
 *          timeout: every channel empty -> C[0] = C[0]+1 mod M, send C[0]
 *   i > 0: receive c from ch[i-1]: c != C[i] -> accept: C[i] = c, send c
 *                                  c == C[i] -> ignore
 *
 * A send to a full channel is dropped (the Go spec's overflow policy drop).
 * Every move is one d_step, so one SPIN transition is one ringcheck step.
 * A process's accept and ignore share one d_step (guard: its incoming
 * channel is nonempty) whose if picks the branch from the received value:
 * the two actions are enabled in disjoint sets of configurations, so the
 * transition relation is the same as the Go spec's. The received value goes
 * into the hidden global `c`, which is not part of the state vector.
 *
 * Default mode: start from the Go spec's initial configuration (every
 * counter 0, message 0 in ch[N-1]); pan (safety flags) stores the N*M
 * reachable configurations plus SPIN's pre-init state.
 *
 * -DCONVERGE: init picks every C[i] in 0..M-1 and the contents of every
 * channel (0..CMAX messages, each 0..M-1) nondeterministically in one atomic
 * sequence, then sets `started`; ltl converge { <> (started && legit) }
 * with pan -a (no fairness) reports an acceptance cycle iff some execution
 * never reaches a legitimate configuration (same encoding as
 * specs/dijkstra/testdata/dijkstra.pml, see its header). legit is the Go
 * spec's Legitimate, spelled out for N <= 4.
 */

#ifndef N
#define N 3
#endif
#ifndef CMAX
#define CMAX 1
#endif
#define M (N*(CMAX+1))

#if N < 2 || N > 6
#error "counterflush.pml: 2 <= N <= 6"
#endif

byte C[N];
chan ch[N] = [CMAX] of { byte };
hidden byte c;

#define E(i) (len(ch[i]) == 0)
#if N == 2
#define allempty (E(0) && E(1))
#define total (len(ch[0]) + len(ch[1]))
#elif N == 3
#define allempty (E(0) && E(1) && E(2))
#define total (len(ch[0]) + len(ch[1]) + len(ch[2]))
#elif N == 4
#define allempty (E(0) && E(1) && E(2) && E(3))
#define total (len(ch[0]) + len(ch[1]) + len(ch[2]) + len(ch[3]))
#elif N == 5
#define allempty (E(0) && E(1) && E(2) && E(3) && E(4))
#define total (len(ch[0]) + len(ch[1]) + len(ch[2]) + len(ch[3]) + len(ch[4]))
#else
#define allempty (E(0) && E(1) && E(2) && E(3) && E(4) && E(5))
#define total (len(ch[0]) + len(ch[1]) + len(ch[2]) + len(ch[3]) + len(ch[4]) + len(ch[5]))
#endif

/*
 * Send v on ch[i], dropped if the channel is full. The test is written with
 * len, not nfull: spin rejects nfull with an else branch ("dubious use of
 * 'else' combined with i/o").
 */
#define send(i, v) if :: len(ch[i]) < CMAX -> ch[i]!v :: else -> skip fi

/* The root, process 0. */
proctype Root()
{
	do
	:: d_step {
		nempty(ch[N-1]) -> ch[N-1]?c;
		if
		:: c == C[0] -> C[0] = (C[0] + 1) % M; send(0, C[0])	/* accept */
		:: else -> skip						/* ignore */
		fi;
		c = 0
	   }
	:: d_step {
		allempty -> C[0] = (C[0] + 1) % M; send(0, C[0])	/* timeout */
	   }
	od
}

/* Process i, 0 < i < N. */
proctype Other(byte i)
{
	do
	:: d_step {
		nempty(ch[i-1]) -> ch[i-1]?c;
		if
		:: c != C[i] -> C[i] = c; send(i, c)	/* accept */
		:: else -> skip				/* ignore */
		fi;
		c = 0
	   }
	od
}

#ifdef CONVERGE
#if N > 4
#error "CONVERGE: the legit macro supports N <= 4"
#endif
/*
 * legit: exactly one message in transit, in ch[j], carrying v = C[j], with
 * C[0..j] = v and C[j+1..N-1] = v-1 mod M. H(j) says ch[j] holds v = C[j];
 * P(k) is v-1 mod M for v = C[k].
 */
#define H(j) (len(ch[j]) == 1 && ch[j]?[eval(C[j])])
#define P(k) ((C[k] + M - 1) % M)
#if N == 2
#define pattern ((H(0) && C[1] == P(0)) || \
		 (H(1) && C[0] == C[1]))
#elif N == 3
#define pattern ((H(0) && C[1] == P(0) && C[2] == P(0)) || \
		 (H(1) && C[0] == C[1] && C[2] == P(1)) || \
		 (H(2) && C[0] == C[2] && C[1] == C[2]))
#else
#define pattern ((H(0) && C[1] == P(0) && C[2] == P(0) && C[3] == P(0)) || \
		 (H(1) && C[0] == C[1] && C[2] == P(1) && C[3] == P(1)) || \
		 (H(2) && C[0] == C[2] && C[1] == C[2] && C[3] == P(2)) || \
		 (H(3) && C[0] == C[3] && C[1] == C[3] && C[2] == C[3]))
#endif
#define legit (total == 1 && pattern)

/* Set by init's last step: the ring is in its chosen configuration. */
bit started;
/* Every execution, after init, reaches a legitimate configuration. */
ltl converge { <> (started && legit) }
#endif

init
{
	byte i, k, v;
	atomic {
		run Root();
		for (i : 1 .. N-1) {
			run Other(i)
		};
#ifdef CONVERGE
		/* C[i] := any value in 0..M-1; ch[i] := any 0..CMAX messages. */
		for (i : 0 .. N-1) {
			do
			:: C[i] < M-1 -> C[i]++
			:: break
			od;
			k = 0;
			do
			:: k < CMAX ->
				v = 0;
				do
				:: v < M-1 -> v++
				:: break
				od;
				ch[i]!v;
				k++
			:: break
			od
		};
		/* Reset the choice variables: init ends in one local state. */
		k = 0;
		v = 0;
		started = 1
#else
		/* The Go spec's Initial: counters 0, message 0 on its way to the root. */
		ch[N-1]!0
#endif
	}
}
