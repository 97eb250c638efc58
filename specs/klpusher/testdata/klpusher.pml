/*
 * klpusher.pml: Promela twin of specs/klpusher/klpusher.go, for checking
 * ringcheck's model against SPIN's and comparing their throughput (see
 * spin_bench_test.go).
 *
 * The naive token-collection k-out-of-L exclusion protocol of Datta,
 * Devismes, Horn and Larmore (AlgoTel 2008, section 2), exactly as in
 * specs/klnaive/testdata/klnaive.pml, plus the pusher token ("jeton
 * pousseur"): one PUSH message that circulates forever and is not a
 * resource unit. L TOK messages and the PUSH circulate on a unidirectional
 * ring of N processes with FIFO channels; c[i] is the channel INTO process
 * i (from process (i-1) mod N), and process i sends on c[(i+1) mod N]. Each
 * process has need[i] (0..K, 0 when idle) and cnt[i] (0..K, tokens
 * reserved). The actions of process i, each one d_step (one indivisible
 * SPIN transition = one ringcheck step):
 *
 *   request(k)  need == 0 && cnt == 0            -> need = k   (k in 1..K,
 *               one option per k, so K transitions as in the Go spec)
 *   collect     head(c[i]) == TOK && cnt < need  -> receive; cnt++
 *   forward     head(c[i]) == TOK && cnt >= need -> receive; send TOK on
 *               c[i+1]
 *   push        head(c[i]) == PUSH               -> receive; if 0 < cnt <
 *               need: send cnt TOKs on c[i+1], cnt = 0; then send PUSH on
 *               c[i+1]
 *   leave       need > 0 && cnt == need          -> send cnt TOKs on c[i+1];
 *               need = 0; cnt = 0
 *
 * Process i is two proctypes: Node(i) runs the protocol actions (collect,
 * forward, push) and App(i) the environment's (request, leave). This makes
 * SPIN's weak fairness (pan -f: every process that is continuously enabled
 * eventually moves) the same as ringcheck's under --fairness weak, whose
 * classes are, for every process, its protocol actions and, separately, its
 * finite actions (leave); see STARVE below. Splitting changes nothing else:
 * both proctypes loop at one control state, so the stored states are the
 * same configurations.
 *
 * The channel overflow policy is the Go spec's default, block: an action
 * whose sends would overflow its outgoing channel is not enabled (the
 * len(...) conjuncts). With the default CMAX = L+1 no send can ever
 * overflow: tokens and the pusher are conserved.
 *
 * Initial configuration (Go spec's Initial): every process idle, token j,
 * for j in 0..L-1, in c[j mod N], and then the pusher at the tail of c[0],
 * behind the tokens there. init starts the processes and fills the
 * channels in one atomic sequence.
 *
 * No state is a valid end state for the ring processes (their loops carry
 * no end label); none is reachable, since receiving the pusher is always
 * enabled. The invariants (units in use <= L, one pusher) hold trivially
 * (tokens and the pusher are conserved), so they are not assertions.
 *
 * State count. As for klnaive.pml: pan does not store the intermediate
 * states of an atomic sequence, so (with -E, though there is no invalid end
 * state to ignore) pan stores exactly the states ringcheck reaches from
 * init, plus ONE: the global initial state in which init has not yet run.
 * pan's transitions are ringcheck's + 2 (init's atomic step, and the root
 * state's arrival).
 *
 * Defaults N=3, L=3, K=2, CMAX=L+1; each can be set with -D, e.g.
 *   spin -DN=4 -DL=4 -DK=2 -a klpusher.pml
 * K is at most 6 (the Go spec's bound), one request option per value.
 *
 * -DFIGURE2 (N = 3 only) makes init, once the ring is set up, wait for the
 * paper's Figure 2 configuration (a) and then assert(false): need = 1,1,2,
 * cnt = 0,0,0, one TOK in each channel, and the PUSH behind the TOK in
 * c[0] (the link from 2 to 0). Run pan with -E; the assertion violation
 * says (a) is reachable. The waiting init has one constant state.
 *
 * -DSTARVE: starvation of process P (-DP=i, default 2) under weak fairness,
 * the ltl claim
 *   starve: [] (req -> <> cs)
 * with req = (0 < need[P] && cnt[P] < need[P]) and cs = (0 < need[P] &&
 * cnt[P] == need[P]), ringcheck's "requesting" and "inCS". Build and run:
 *   spin -DSTARVE -DP=2 -a klpusher.pml
 *   gcc -O2 -DNOREDUCE -DMEMLIM=16000 -DNFAIR=3 -o pan pan.c   (no -DSAFETY)
 *   ./pan -a -f -m100000
 * (pan -f needs NFAIR > (processes + 1) / 4, processes = 2N + 1 with init:
 * 3 for N = 3, 4 for N = 5 or 6; see spintest.FairCFlags.) An "acceptance
 * cycle" is a weakly fair execution in which P requests and never enters
 * its critical section. For N=3, L=3, K=2 pan finds one for P = 0, 1 and 2
 * (Figure 2's is P = 2); for K = 1 it finds none. For the fairness to be ringcheck's,
 * STARVE adds to App(i) a step that changes nothing, enabled while i is
 * idle: request is optional (an idle process may stay idle forever), and
 * without that step pan -f would force every idle App to request. With it,
 * App(i) is continuously enabled only while idle (where the stutter step
 * discharges it) or in its critical section (where only leave is enabled,
 * so leave is weakly fair: critical sections are finite). The stutter step
 * adds transitions, never states, so STARVE is off in the safety twin.
 */

#ifndef N
#define N 3
#endif
#ifndef L
#define L 3
#endif
#ifndef K
#define K 2
#endif
#ifndef CMAX
#define CMAX (L + 1)
#endif
#ifndef P
#define P 2
#endif
#if K < 1 || K > 6
#error "K must be in 1..6"
#endif

mtype = { TOK, PUSH };

chan c[N] = [CMAX] of { mtype };
byte need[N];
byte cnt[N];

#ifdef FIGURE2
#if N != 3
#error "-DFIGURE2 needs N = 3"
#endif
#define FIGURE2_CONFIG	(need[0] == 1 && need[1] == 1 && need[2] == 2 && \
			 cnt[0] == 0 && cnt[1] == 0 && cnt[2] == 0 && \
			 len(c[1]) == 1 && c[1]?[TOK] && \
			 len(c[2]) == 1 && c[2]?[TOK] && \
			 len(c[0]) == 2 && c[0]?[TOK] && c[0]??[PUSH])
#endif

#define idle(i)		(need[i] == 0 && cnt[i] == 0)
#define holding(i)	(cnt[i] > 0 && cnt[i] < need[i])
#define request(i, k)	d_step { idle(i) -> need[i] = k }

#ifdef STARVE
#define req	(need[P] > 0 && cnt[P] < need[P])
#define cs	(need[P] > 0 && cnt[P] == need[P])
ltl starve { [] (req -> <> cs) }
#endif

/* The protocol actions of process i. */
proctype Node(byte i)
{
	byte out = (i + 1) % N;	/* index of the outgoing channel */

	do
	/* collect */
	:: d_step { c[i]?[TOK] && cnt[i] < need[i] ->
		c[i]?TOK;
		cnt[i]++
	   }
	/* forward */
	:: d_step { c[i]?[TOK] && cnt[i] >= need[i] && len(c[out]) < CMAX ->
		c[i]?TOK;
		c[out]!TOK
	   }
	/* push: release the tokens held short of the need, pass the pusher */
	:: d_step { c[i]?[PUSH] &&
		    len(c[out]) + (holding(i) -> cnt[i] : 0) + 1 <= CMAX ->
		c[i]?PUSH;
		if
		:: holding(i) ->
			do
			:: cnt[i] > 0 -> c[out]!TOK; cnt[i]--
			:: else -> break
			od
		:: else -> skip
		fi;
		c[out]!PUSH
	   }
	od
}

/* The environment actions of process i. */
proctype App(byte i)
{
	byte out = (i + 1) % N;

	do
	/* request(k) for k in 1..K */
	:: request(i, 1)
#if K >= 2
	:: request(i, 2)
#endif
#if K >= 3
	:: request(i, 3)
#endif
#if K >= 4
	:: request(i, 4)
#endif
#if K >= 5
	:: request(i, 5)
#endif
#if K >= 6
	:: request(i, 6)
#endif
#ifdef STARVE
	/* stay idle (request is optional; see the header) */
	:: d_step { idle(i) -> skip }
#endif
	/* leave */
	:: d_step { need[i] > 0 && cnt[i] == need[i] && len(c[out]) + cnt[i] <= CMAX ->
		do
		:: cnt[i] > 0 -> c[out]!TOK; cnt[i]--
		:: else -> break
		od;
		need[i] = 0
	   }
	od
}

init
{
	byte j;
	atomic {
		for (j : 0 .. N-1) {
			run Node(j);
			run App(j)
		};
		for (j : 0 .. L-1) {
			c[j % N]!TOK
		};
		c[0]!PUSH
	}
#ifdef FIGURE2
	FIGURE2_CONFIG -> assert(false)
#endif
}
