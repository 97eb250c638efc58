/*
 * klddhl.pml: Promela twin of specs/klddhl/klddhl.go, for checking
 * ringcheck's model against SPIN's and comparing their throughput (see
 * spin_test.go and bench_test.go).
 *
 * The full self-stabilizing k-out-of-L exclusion protocol of Datta,
 * Devismes, Horn and Larmore (AlgoTel 2008, seed 001): resource tokens,
 * the pusher, the priority token and the counter-flushing regulator, action
 * by action as the Go spec's package comment and code define them.
 *
 * Ring and channels. N processes on a unidirectional ring, process 0 the
 * root. link[i] is the FIFO channel FROM process i TO process (i+1) mod N
 * (the Go spec's Vars.Out[i]), of capacity CMAX; process i receives on
 * link[(i+N-1) mod N] and sends on link[i]. A message is an mtype and the
 * four fields of a privilege, { TOK | PUSH | PRIO | PRIV, c, tok, pri,
 * mark }; TOK, PUSH and PRIO are always sent with four zero fields, so a
 * channel's contents are the Go channel's, letter for letter.
 *
 * Overflow: a send to a full channel is lost (the Go spec's drop policy),
 * SEND below: if :: nfull(q) -> q!... :: full(q) -> skip fi, inside the
 * sending action's d_step.
 *
 * Variables (globals, as the Go model's): need[i] in 0..K+1 (K+1: any
 * corrupted request above K), cnt[i] in 0..K, prio[i] in 0..1, C[i] in
 * 0..M-1 with M = N*(CMAX+1); the root's tok (0..L+1), pri (0..2), push
 * (0..2) and reset (0..1). Counts saturate at their top value (SAT).
 *
 * privs is the number of PRIV messages in the channels, kept up to date in
 * the same d_steps that send (when the send is not lost) and receive them;
 * it is the timeout's guard (privs == 0). It is a function of the channel
 * contents, so it distinguishes no two states the Go model identifies and
 * adds no state. The scratch variables of the d_steps (hc, htok, ntok,
 * held, j, ...) are hidden: not part of the state vector, always written
 * before being read inside one d_step (a poll's variables are wildcards,
 * and are not written).
 *
 * Actions, each ONE d_step (one indivisible SPIN transition = one
 * ringcheck step), with waiting(i) = 0 < need[i] <= K && cnt[i] < need[i]
 * and resetting(i) = (i == 0 && reset); cancel comes first: every other
 * protocol action also requires !corrupt(i):
 *
 *   cancel     corrupt = need > K || cnt > need || (prio && !waiting)
 *              -> if need > K || cnt > need: send cnt TOKs, need = cnt = 0;
 *                 then if prio && the process is not waiting any more:
 *                 send PRIO, prio = 0
 *   request(k) need == 0 && cnt == 0 -> need = k   (one option per k in 1..K)
 *   collect    head TOK && !resetting && waiting -> receive; root counts
 *              it; cnt++; if cnt == need && prio: send PRIO, prio = 0
 *   forward    head TOK && !resetting && !waiting -> receive; root counts
 *              it; send TOK
 *   push       head PUSH && !resetting -> receive; root counts it; if
 *              0 < cnt < need && !prio: send cnt TOKs, cnt = 0; send PUSH
 *   priority   head PRIO && !resetting -> receive; root counts it; if
 *              waiting && !prio: prio = 1, else send PRIO
 *   leave      0 < need == cnt -> send cnt TOKs; need = cnt = 0
 *   accept     head PRIV(c, tok', pri', mark) with c == C (root) or
 *              c != C (others) -> receive; then
 *              others: C = c; if mark: cnt = 0, prio = 0 and send the
 *                PRIV unchanged, else send PRIV(c, tok'+cnt, pri'+prio, 0)
 *              root: C = C+1 mod M; if reset: create L TOKs, the PUSH and
 *                the PRIO, reset = 0; else with tok+tok', pri+pri', push:
 *                if one is too high (> L, 1, 1): reset = 1, cnt = prio = 0,
 *                and the new PRIV is marked; else create the missing TOKs,
 *                PUSH and PRIO; then send what it created and start a
 *                tour with the mark
 *   ignore     head PRIV(c, ...) not valid -> receive
 *   flush      root only: reset && head is not a PRIV -> receive
 *   timeout    root only: privs == 0 -> C = C+1 mod M, reset = 0, start a
 *              tour (tok = cnt, pri = prio, push = 0, send PRIV(C, 0, 0, 0))
 *
 * Like the Go effects, which read the configuration before the step, the
 * d_steps read a variable before assigning it (e.g. cancel computes
 * waiting before it clears need and cnt).
 *
 * Process i is two proctypes, as in specs/klpusher/testdata/klpusher.pml:
 * Root (i = 0) or Node(i) (i > 0) runs its protocol actions, App(i) the
 * environment's (request, leave). Each loops at one control state, so the
 * stored states are the Go model's configurations.
 *
 * Initial configuration (Go spec's Initial): every process idle, C[0] = 0,
 * C[i] = M-1 for i > 0, root counts 0, and in link[0], in that order, L
 * TOKs, the PUSH, the PRIO and PRIV(0, 0, 0, 0); privs = 1. init starts the
 * processes and fills link[0] in one atomic sequence.
 *
 * No state is a valid end state for the ring processes (their loops carry
 * no end label), as in the Go spec; pan without -E reports any reachable
 * configuration with no enabled action as an invalid end state.
 *
 * State count: pan does not store the intermediate states of a d_step or
 * of init's atomic sequence, so pan stores exactly the states ringcheck
 * reaches from init, plus ONE: the global initial state in which init has
 * not run yet. pan's transitions are ringcheck's + 2 (init's atomic step,
 * and the arrival pan counts for its root state). See spin_test.go.
 *
 * -DFAULT=1 and -DFAULT=2 start instead from a configuration a transient
 * fault left (see init; faultState in spin_test.go builds the same ones for
 * ringcheck), so that the actions no execution from the legitimate initial
 * configuration takes (cancel, flush, timeout, a reset, a marked or stale
 * privilege, a send lost to a full channel) are compared too:
 *   FAULT=1  no valid privilege: the root resetting (reset = 1) and
 *            requesting one unit, process 1 requesting above K (need[1] =
 *            K+1) with one token and the priority token (prio[1] = 1),
 *            every C = 4; in link[0] a TOK and PRIV(4, 0, 0, 0) (stale
 *            for process 1), link[N-1] full of CMAX PRIV(2, 0, 0, 0)
 *            (stale for the root)
 *   FAULT=2  the root in its critical section with one token (need[0] =
 *            cnt[0] = tok = 1), the other L-1 tokens missing, C as in the
 *            initial configuration; link[0] full: the PUSH, the PRIO, L
 *            PRIV(M-1, 0, 0, 0) (stale for process 1) and PRIV(0, 0, 0, 0),
 *            so the root's leave loses its token
 * Both need CMAX >= L+3 (so M > 4), the Go spec's bound.
 *
 * Defaults N=3, L=2, K=2, CMAX=L+3 (the Go spec's Cmax=0); each can be set
 * with -D, e.g.  spin -DN=2 -DL=1 -DK=1 -a klddhl.pml
 * K is at most 6 (the Go spec's bound), one request option per value.
 */

#ifndef N
#define N 3
#endif
#ifndef L
#define L 2
#endif
#ifndef K
#define K 2
#endif
#ifndef CMAX
#define CMAX (L + 3)
#endif
#ifndef FAULT
#define FAULT 0
#endif
#define M (N * (CMAX + 1))
#if K < 1 || K > 6
#error "K must be in 1..6"
#endif
#if K > L
#error "need K <= L"
#endif

mtype = { TOK, PUSH, PRIO, PRIV };

chan link[N] = [CMAX] of { mtype, byte, byte, byte, byte };

byte need[N];
byte cnt[N];
bit prio[N];
byte C[N];
byte tok;	/* root: resource tokens counted this tour, 0..L+1 */
byte pri;	/* root: priority tokens counted, 0..2 */
byte push;	/* root: pushers counted, 0..2 */
bit reset;	/* root: flushing the ring */
byte privs;	/* PRIV messages in the channels (a function of them) */

/* scratch of the d_steps: not in the state vector */
hidden byte hc, htok, hpri, hmark;	/* the fields of a received PRIV */
hidden byte ntok, npush, nprio;		/* messages the root creates */
hidden byte held, hprio, hnext;
hidden byte hwait;
hidden byte j;

#define IN(i)		link[((i) + N - 1) % N]
#define OUT(i)		link[i]
#define waiting(i)	(need[i] > 0 && need[i] <= K && cnt[i] < need[i])
#define resetting(i)	((i) == 0 && reset)
#define corrupt(i)	(need[i] > K || cnt[i] > need[i] || (prio[i] && !waiting(i)))
#define SAT(x, top)	if :: (x) < (top) -> x++ :: else -> skip fi

/* send a message, lost if the channel is full */
#define SEND(q, t, f1, f2, f3, f4) \
	if \
	:: nfull(q) -> q!t, f1, f2, f3, f4 \
	:: full(q) -> skip \
	fi
#define SENDTOKENS(i, count) \
	j = count; \
	do \
	:: j > 0 -> SEND(OUT(i), TOK, 0, 0, 0, 0); j-- \
	:: else -> break \
	od
#define SENDPRIV(i, c, t, p, m) \
	if \
	:: nfull(OUT(i)) -> OUT(i)!PRIV, c, t, p, m; privs++ \
	:: full(OUT(i)) -> skip \
	fi

/* the root counts what it receives */
#define COUNT(i, var, top) \
	if :: (i) == 0 -> SAT(var, top) :: else -> skip fi

/* The protocol actions every process has. */
#define PROTOCOL(i) \
	/* cancel */ \
	:: d_step { corrupt(i) -> \
		hwait = waiting(i); \
		if \
		:: need[i] > K || cnt[i] > need[i] -> \
			SENDTOKENS(i, cnt[i]); \
			need[i] = 0; cnt[i] = 0; hwait = 0 \
		:: else -> skip \
		fi; \
		if \
		:: prio[i] && !hwait -> SEND(OUT(i), PRIO, 0, 0, 0, 0); prio[i] = 0 \
		:: else -> skip \
		fi \
	   } \
	/* collect */ \
	:: d_step { IN(i)?[TOK, 0, 0, 0, 0] && !resetting(i) && !corrupt(i) && waiting(i) -> \
		IN(i)?TOK, _, _, _, _; \
		COUNT(i, tok, L + 1); \
		cnt[i]++; \
		if \
		:: cnt[i] == need[i] && prio[i] -> SEND(OUT(i), PRIO, 0, 0, 0, 0); prio[i] = 0 \
		:: else -> skip \
		fi \
	   } \
	/* forward */ \
	:: d_step { IN(i)?[TOK, 0, 0, 0, 0] && !resetting(i) && !corrupt(i) && !waiting(i) -> \
		IN(i)?TOK, _, _, _, _; \
		COUNT(i, tok, L + 1); \
		SEND(OUT(i), TOK, 0, 0, 0, 0) \
	   } \
	/* push */ \
	:: d_step { IN(i)?[PUSH, 0, 0, 0, 0] && !resetting(i) && !corrupt(i) -> \
		IN(i)?PUSH, _, _, _, _; \
		COUNT(i, push, 2); \
		if \
		:: 0 < cnt[i] && cnt[i] < need[i] && !prio[i] -> \
			SENDTOKENS(i, cnt[i]); \
			cnt[i] = 0 \
		:: else -> skip \
		fi; \
		SEND(OUT(i), PUSH, 0, 0, 0, 0) \
	   } \
	/* priority */ \
	:: d_step { IN(i)?[PRIO, 0, 0, 0, 0] && !resetting(i) && !corrupt(i) -> \
		IN(i)?PRIO, _, _, _, _; \
		COUNT(i, pri, 2); \
		if \
		:: waiting(i) && !prio[i] -> prio[i] = 1 \
		:: else -> SEND(OUT(i), PRIO, 0, 0, 0, 0) \
		fi \
	   }

/* The root starting a tour with counter C[0] (already advanced): it counts
 * what it holds (held, hprio: its cnt and prio after the step) and sends
 * PRIV(C[0], 0, 0, mark). */
#define STARTTOUR(mark) \
	tok = held; pri = hprio; push = 0; \
	SENDPRIV(0, C[0], 0, 0, mark)

proctype Root()
{
	do
	PROTOCOL(0)
	/* accept: the privilege is back, a tour ends */
	:: d_step { IN(0)?[PRIV, eval(C[0]), htok, hpri, hmark] && !corrupt(0) ->
		IN(0)?PRIV, hc, htok, hpri, hmark;
		privs--;
		C[0] = (C[0] + 1) % M;
		hmark = 0; held = cnt[0]; hprio = prio[0];
		ntok = 0; npush = 0; nprio = 0;
		if
		:: reset ->
			ntok = L; npush = 1; nprio = 1;
			reset = 0
		:: else ->
			/* tok + tok', pri + pri', push, saturated */
			htok = (tok + htok > L + 1 -> L + 1 : tok + htok);
			hpri = (pri + hpri > 2 -> 2 : pri + hpri);
			if
			:: htok > L || hpri > 1 || push > 1 ->
				hmark = 1;
				reset = 1;
				cnt[0] = 0; prio[0] = 0;
				held = 0; hprio = 0
			:: else ->
				ntok = L - htok; npush = 1 - push; nprio = 1 - hpri
			fi
		fi;
		SENDTOKENS(0, ntok);
		if :: npush > 0 -> SEND(OUT(0), PUSH, 0, 0, 0, 0) :: else -> skip fi;
		if :: nprio > 0 -> SEND(OUT(0), PRIO, 0, 0, 0, 0) :: else -> skip fi;
		STARTTOUR(hmark)
	   }
	/* ignore */
	:: d_step { IN(0)?[PRIV, hc, htok, hpri, hmark] && !IN(0)?[PRIV, eval(C[0]), htok, hpri, hmark] && !corrupt(0) ->
		IN(0)?PRIV, _, _, _, _;
		privs--
	   }
	/* flush */
	:: d_step { reset && nempty(IN(0)) && !IN(0)?[PRIV, hc, htok, hpri, hmark] && !corrupt(0) ->
		IN(0)?_, _, _, _, _
	   }
	/* timeout: no privilege anywhere */
	:: d_step { privs == 0 && !corrupt(0) ->
		C[0] = (C[0] + 1) % M;
		reset = 0;
		held = cnt[0]; hprio = prio[0];
		STARTTOUR(0)
	   }
	od
}

proctype Node(byte i)
{
	do
	PROTOCOL(i)
	/* accept: a privilege with a new counter value */
	:: d_step { IN(i)?[PRIV, hc, htok, hpri, hmark] && !IN(i)?[PRIV, eval(C[i]), htok, hpri, hmark] && !corrupt(i) ->
		IN(i)?PRIV, hc, htok, hpri, hmark;
		privs--;
		C[i] = hc;
		if
		:: hmark -> cnt[i] = 0; prio[i] = 0
		:: else ->
			htok = (htok + cnt[i] > L + 1 -> L + 1 : htok + cnt[i]);
			hpri = (hpri + prio[i] > 2 -> 2 : hpri + prio[i])
		fi;
		SENDPRIV(i, hc, htok, hpri, hmark)
	   }
	/* ignore: the counter value it already has */
	:: d_step { IN(i)?[PRIV, eval(C[i]), htok, hpri, hmark] && !corrupt(i) ->
		IN(i)?PRIV, _, _, _, _;
		privs--
	   }
	od
}

/* The environment actions of process i. */
#define REQUEST(i, k)	:: d_step { need[i] == 0 && cnt[i] == 0 -> need[i] = k }

proctype App(byte i)
{
	do
	REQUEST(i, 1)
#if K >= 2
	REQUEST(i, 2)
#endif
#if K >= 3
	REQUEST(i, 3)
#endif
#if K >= 4
	REQUEST(i, 4)
#endif
#if K >= 5
	REQUEST(i, 5)
#endif
#if K >= 6
	REQUEST(i, 6)
#endif
	/* leave */
	:: d_step { need[i] > 0 && cnt[i] == need[i] ->
		SENDTOKENS(i, cnt[i]);
		need[i] = 0; cnt[i] = 0
	   }
	od
}

init
{
	byte p;
	atomic {
#if FAULT == 0
		for (p : 1 .. N-1) {
			C[p] = M - 1
		};
		for (p : 1 .. L) {
			link[0]!TOK, 0, 0, 0, 0
		};
		link[0]!PUSH, 0, 0, 0, 0;
		link[0]!PRIO, 0, 0, 0, 0;
		link[0]!PRIV, 0, 0, 0, 0;
		privs = 1;
#elif FAULT == 1
		/* no valid privilege: the root resetting and requesting a unit,
		 * process 1 requesting above K with a token and the priority
		 * token it does not need, stale privileges filling link[N-1] */
		reset = 1;
		need[0] = 1;
		need[1] = K + 1; cnt[1] = 1; prio[1] = 1;
		for (p : 0 .. N-1) {
			C[p] = 4
		};
		link[0]!TOK, 0, 0, 0, 0;
		link[0]!PRIV, 4, 0, 0, 0;
		for (p : 1 .. CMAX) {
			link[N-1]!PRIV, 2, 0, 0, 0
		};
		privs = CMAX + 1;
#elif FAULT == 2
		/* the root in its critical section with one token, the other
		 * L-1 missing, stale privileges filling link[0] */
		need[0] = 1; cnt[0] = 1; tok = 1;
		for (p : 1 .. N-1) {
			C[p] = M - 1
		};
		link[0]!PUSH, 0, 0, 0, 0;
		link[0]!PRIO, 0, 0, 0, 0;
		for (p : 1 .. L) {
			link[0]!PRIV, M - 1, 0, 0, 0
		};
		link[0]!PRIV, 0, 0, 0, 0;
		privs = L + 1;
#else
#error "FAULT must be 0, 1 or 2"
#endif
		run Root();
		run App(0);
		for (p : 1 .. N-1) {
			run Node(p);
			run App(p)
		};
		p = 0
	}
}
