/*
 * klnaive.pml: Promela twin of specs/klnaive/klnaive.go, for comparing
 * ringcheck's throughput with SPIN's (see spin_bench_test.go).
 *
 * The naive token-collection k-out-of-L exclusion protocol of Datta,
 * Devismes, Horn and Larmore (AlgoTel 2008, section 2, Figure 1): L tokens
 * circulate on a unidirectional ring of N processes with FIFO channels;
 * c[i] is the channel INTO process i (from process (i-1) mod N), and
 * process i sends on c[(i+1) mod N]. Each process has need[i] (0..K, 0 when
 * idle) and cnt[i] (0..K, tokens reserved). The actions of process i, each
 * one d_step (one indivisible SPIN transition = one ringcheck step):
 *
 *   request(k)  need == 0 && cnt == 0            -> need = k   (k in 1..K,
 *               one option per k, so K transitions as in the Go spec)
 *   collect     head(c[i]) == TOK && cnt < need  -> receive; cnt++
 *   forward     head(c[i]) == TOK && cnt >= need -> receive; send TOK on
 *               c[i+1]
 *   leave       need > 0 && cnt == need          -> send cnt TOKs on c[i+1];
 *               need = 0; cnt = 0
 *
 * The channel overflow policy is the Go spec's default, block: an action
 * whose sends would overflow its outgoing channel is not enabled (the
 * len(...) conjuncts). With the default CMAX = L no send can ever overflow.
 *
 * Initial configuration (Go spec's Initial): every process idle, and token
 * j, for j in 0..L-1, in c[j mod N]. init starts the processes and deals the
 * tokens in one atomic sequence.
 *
 * No state is a valid end state for the ring processes (their loop carries
 * no end label), so a reachable state where nothing is enabled is reported
 * by pan as an "invalid end state": the deadlock of the paper's Figure 1
 * (each process requesting 2 and holding 1 token, no token in transit) is
 * one such state, though the first one pan's depth-first search reports
 * need not be that one. The invariant "units in use <= L" holds trivially
 * (tokens are conserved), so it is not written as an assertion.
 *
 * State count. pan does not store the intermediate states of an atomic
 * sequence, so with -E (ignore invalid end states) pan stores exactly the
 * states ringcheck reaches from init, plus ONE: the global initial state in
 * which init has not yet run (no ring process exists, channels are empty).
 * Once init's atomic sequence ends, init sits at its end forever (it cannot
 * die before its children) and its local j is L, so init adds no other
 * variation. For N=5, L=5, K=3 ringcheck reaches 988727 states and pan
 * stores 988728. Likewise pan's transitions (printed as stored+matched)
 * are ringcheck's transitions + 2: one for init's atomic step and one
 * because pan counts the root state itself as a "stored" arrival.
 *
 * Defaults N=5, L=5, K=3, CMAX=L; each can be set with -D, e.g.
 *   spin -DN=3 -DL=3 -DK=2 -a klnaive.pml
 * K is at most 8 (the Go spec's bound), one request option per value.
 *
 * -DFIGURE1 (N <= 8) makes init, once the ring is set up, wait for the
 * Figure 1 deadlock configuration and then assert(false); run pan with -E
 * to have it report reaching exactly that configuration as an assertion
 * violation. The waiting init has one constant state, so it changes neither
 * the reachable ring configurations nor their count.
 */

#ifndef N
#define N 5
#endif
#ifndef L
#define L 5
#endif
#ifndef K
#define K 3
#endif
#ifndef CMAX
#define CMAX L
#endif
#if K < 1 || K > 8
#error "K must be in 1..8"
#endif

mtype = { TOK };

chan c[N] = [CMAX] of { mtype };
byte need[N];
byte cnt[N];

#ifdef FIGURE1
#if N > 8
#error "-DFIGURE1 supports N <= 8"
#endif
/* process i, if it exists, requests 2, holds 1 and has no token coming */
#define FIG1(i)	(i >= N || (need[i % N] == 2 && cnt[i % N] == 1 && len(c[i % N]) == 0))
#define FIGURE1_CONFIG	(FIG1(0) && FIG1(1) && FIG1(2) && FIG1(3) && \
			 FIG1(4) && FIG1(5) && FIG1(6) && FIG1(7))
#endif

#define idle(i)		(need[i] == 0 && cnt[i] == 0)
#define request(i, k)	d_step { idle(i) -> need[i] = k }

proctype P(byte i)
{
	byte out = (i + 1) % N;	/* index of the outgoing channel */

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
#if K >= 7
	:: request(i, 7)
#endif
#if K >= 8
	:: request(i, 8)
#endif
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
			run P(j)
		};
		for (j : 0 .. L-1) {
			c[j % N]!TOK
		}
	}
#ifdef FIGURE1
	FIGURE1_CONFIG -> assert(false)
#endif
}
