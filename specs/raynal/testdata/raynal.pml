/*
 * raynal.pml: Promela twin of specs/raynal/raynal.go (whose statements are
 * specs/internal/raynalcore's, with one resource type in §3's layout), for
 * checking ringcheck's model against SPIN's and comparing their throughput
 * (see spin_test.go and bench_test.go).
 *
 * Raynal's permission-based k-out-of-M resource allocation (INRIA RR-1342,
 * 1990, seed 003): §3, or with -DASKED=1 the reduced-message variant of
 * §5.1, action by action as the Go spec's package comment and
 * raynalcore's statements define them. The ghost message counter
 * (count=1) is not modelled: this is the Go spec with count=0.
 *
 * Graph and channels. N processes on a complete graph; q[CH(j, i)] is the
 * FIFO channel FROM process j TO process i, of capacity CMAX (the Go
 * spec's 3R); the N diagonal channels q[CH(i, i)] exist but stay empty.
 * A message is { REQ | FREE, field }: req(h) is { REQ, h }, free(y) is
 * { FREE, y }, so a channel's contents are the Go channel's, letter for
 * letter.
 *
 * Overflow: the Go spec's policy is error, and with CMAX = 3R no send can
 * find its channel full; SEND asserts that it does not (a blocked send
 * inside a d_step would be an error anyway).
 *
 * Variables (globals, as the Go model's): scdem[i], ok[i] (bits), k[i] in
 * 0..K, h[i] and maxh[i] in 0..N*R, reqs[i] in 0..R, and, indexed
 * PEER(i, j) = i*N + j for j != i, used (in -RM..RM, hence short),
 * delayed and, with ASKED=1, asked. The diagonal entries PEER(i, i) are
 * never written. The scratch variables of the d_steps (hv, hu, hs, hx,
 * hk, hp) are hidden: not part of the state vector, always written
 * before being read inside one d_step.
 *
 * Actions, each ONE d_step (one indivisible SPIN transition = one
 * ringcheck step); like the Go effects, which read the configuration
 * before the step, a d_step reads a variable before it assigns it:
 *
 *   request(k)  App(i): !scdem && !ok && reqs < R, one option per k in
 *               1..K -> h := maxh + 1; reqs++; k := k; then §3: scdem,
 *               !ok, used[j] += M and req(h) to every j != i; or §5.1:
 *               for every j != i, if used[j] == 0: used[j] := M, asked[j]
 *               and req(h) to j, else !asked[j]; ok := Σ used + k <= M,
 *               scdem := !ok
 *   leave       App(i): ok -> ok := 0; free(k) to every delayed j,
 *               delayed[j] := 0; k := 0; h := 0
 *   recvReq(j)  Node(i): head of q[CH(j, i)] is REQ -> receive req(h);
 *               maxh := max(maxh, h); prio := (scdem || ok) && (h_i, i) <
 *               (h, j); !prio: free(M); §3 and delayed[j] (XX): free(M);
 *               else: free(M - k) unless k == M, delayed[j] := 1
 *   recvFree(j) Node(i): head of q[CH(j, i)] is FREE -> receive free(y);
 *               u := used[j] - y; §5.1: if scdem && u == 0 && !asked[j]:
 *               u := M, req(h_i) to j, asked[j] := 1; used[j] := u; if
 *               scdem and u + k + Σ_{y != i, j} used[y] <= M: scdem := 0,
 *               ok := 1
 *
 * Process i is two proctypes: Node(i) runs the protocol actions in a loop
 * at one control state (labelled end: a process may always wait for
 * messages), App(i) the environment's: R times a request then a leave,
 * unrolled, then a blocked end: state. App(i)'s control state is thus a
 * function of reqs[i] and whether process i is busy (scdem || ok), and
 * every stored state is one of the Go model's configurations.
 *
 * Valid end states: every App at its end label, i.e. every process idle
 * with its R requests made; then every Node is at its end label too, and
 * since a message of either kind can always be received, a state without
 * an enabled step has every channel empty: exactly the Go spec's
 * all-requests-served. pan without -E therefore reports as an invalid end
 * state exactly the configurations ringcheck's deadlock check reports.
 *
 * Safety: with -DINV=1 (the default) every d_step ends with the two
 * invariants as assertions, on the state it reaches (the initial
 * configuration satisfies both):
 *   units-allocated   Σ k_i over processes with ok_i <= M
 *   used-nonnegative  used_i[j] >= 0 for every i != j
 * -DINV=0 leaves them out (the benchmark's search checks nothing, like
 * ringcheck's BenchmarkReachable).
 *
 * Initial configuration (the Go spec's Initial): every variable 0, every
 * channel empty; init starts the processes in one atomic sequence.
 *
 * State count: pan does not store the intermediate states of a d_step or
 * of init's atomic sequence, so pan stores exactly the states ringcheck
 * reaches from init, plus ONE: the global initial state in which init has
 * not run yet. pan's transitions are ringcheck's + 2 (init's atomic step,
 * and the arrival pan counts for its root state). See spin_test.go.
 *
 * Defaults N=3, M=2, K=M, R=2, ASKED=0, CMAX=3R (the Go spec's
 * defaults, with Cmax=0); each can be set with -D, e.g.
 *   spin -DN=2 -DM=2 -DR=2 -DASKED=1 -a raynal.pml
 * N is at most 5 and K at most 4 (the Go spec's bounds).
 */

#ifndef N
#define N 3
#endif
#ifndef M
#define M 2
#endif
#ifndef K
#define K M
#endif
#ifndef R
#define R 2
#endif
#ifndef ASKED
#define ASKED 0
#endif
#ifndef CMAX
#define CMAX (3 * R)
#endif
#ifndef INV
#define INV 1
#endif
#if N < 2 || N > 5
#error "N must be in 2..5"
#endif
#if K < 1 || K > M || K > 4
#error "need 1 <= K <= M, K <= 4"
#endif
#if R < 1 || R > 4
#error "R must be in 1..4"
#endif

mtype = { REQ, FREE };

chan q[N * N] = [CMAX] of { mtype, byte };

bit scdem[N];
bit ok[N];
byte k[N];
byte h[N];
byte maxh[N];
byte reqs[N];
short used[N * N];
bit delayed[N * N];
#if ASKED
bit asked[N * N];
#endif

/* scratch of the d_steps: not in the state vector */
hidden byte hv;		/* the field of a received message */
hidden short hu, hs;	/* the new used_i[j], a sum of used_i */
hidden byte hx;		/* a loop index over the processes */
hidden byte hk;		/* k_i before the step */
hidden byte hp;		/* prio_i */

#define CH(from, to)	((from) * N + (to))
#define PEER(i, j)	((i) * N + (j))

#define SEND(c, t, f) \
	assert(nfull(q[c])); \
	q[c]!t, f

#if INV
/* the invariants, on the state a d_step reaches */
#define CHECK \
	hs = 0; \
	hx = 0; \
	do \
	:: hx < N -> \
		if :: ok[hx] -> hs = hs + k[hx] :: else -> skip fi; \
		hx++ \
	:: else -> break \
	od; \
	assert(hs <= M); /* units-allocated */ \
	hx = 0; \
	do \
	:: hx < N * N -> assert(used[hx] >= 0); /* used-nonnegative */ hx++ \
	:: else -> break \
	od
#else
#define CHECK skip
#endif

/* request(kk) of process i: "when requesting resources" */
#if ASKED
#define REQBODY(i, kk) \
	hs = 0; \
	hx = 0; \
	do \
	:: hx < N -> \
		if \
		:: hx != i -> \
			if \
			:: used[PEER(i, hx)] == 0 -> \
				used[PEER(i, hx)] = M; \
				asked[PEER(i, hx)] = 1; \
				SEND(CH(i, hx), REQ, h[i]) \
			:: else -> asked[PEER(i, hx)] = 0 \
			fi; \
			hs = hs + used[PEER(i, hx)] \
		:: else -> skip \
		fi; \
		hx++ \
	:: else -> break \
	od; \
	if \
	:: hs + kk <= M -> ok[i] = 1; scdem[i] = 0 \
	:: else -> ok[i] = 0; scdem[i] = 1 \
	fi
#else
#define REQBODY(i, kk) \
	scdem[i] = 1; \
	ok[i] = 0; \
	hx = 0; \
	do \
	:: hx < N -> \
		if \
		:: hx != i -> \
			used[PEER(i, hx)] = used[PEER(i, hx)] + M; \
			SEND(CH(i, hx), REQ, h[i]) \
		:: else -> skip \
		fi; \
		hx++ \
	:: else -> break \
	od
#endif

#define REQUEST(i, kk) \
	:: d_step { !scdem[i] && !ok[i] && reqs[i] < R -> \
		h[i] = maxh[i] + 1; \
		reqs[i]++; \
		k[i] = kk; \
		REQBODY(i, kk); \
		CHECK \
	   }

/* one request of process i, k in 1..K */
#if K == 1
#define REQUESTS(i) if REQUEST(i, 1) fi
#elif K == 2
#define REQUESTS(i) if REQUEST(i, 1) REQUEST(i, 2) fi
#elif K == 3
#define REQUESTS(i) if REQUEST(i, 1) REQUEST(i, 2) REQUEST(i, 3) fi
#else
#define REQUESTS(i) if REQUEST(i, 1) REQUEST(i, 2) REQUEST(i, 3) REQUEST(i, 4) fi
#endif

/* leave of process i: "when releasing the resources" */
#define LEAVE(i) \
	d_step { ok[i] -> \
		hk = k[i]; \
		ok[i] = 0; \
		hx = 0; \
		do \
		:: hx < N -> \
			if \
			:: hx != i && delayed[PEER(i, hx)] -> \
				SEND(CH(i, hx), FREE, hk); \
				delayed[PEER(i, hx)] = 0 \
			:: else -> skip \
			fi; \
			hx++ \
		:: else -> break \
		od; \
		k[i] = 0; \
		h[i] = 0; \
		CHECK \
	}

/* recvReq(j) of process i: "when receiving req(h, j) from P_j" */
#if ASKED
#define XX(i, j)	false
#else
#define XX(i, j)	delayed[PEER(i, j)]
#endif
#define RECVREQ(i, j) \
	:: d_step { q[CH(j, i)]?[REQ, hv] -> \
		q[CH(j, i)]?REQ, hv; \
		if :: hv > maxh[i] -> maxh[i] = hv :: else -> skip fi; \
		hp = (scdem[i] || ok[i]) && (h[i] < hv || (h[i] == hv && i < j)); \
		if \
		:: !hp -> SEND(CH(i, j), FREE, M) \
		:: hp && XX(i, j) -> SEND(CH(i, j), FREE, M) \
		:: else -> \
			if \
			:: k[i] != M -> SEND(CH(i, j), FREE, M - k[i]) \
			:: else -> skip \
			fi; \
			delayed[PEER(i, j)] = 1 \
		fi; \
		CHECK \
	   }

/* recvFree(j) of process i: "when receiving free(y) from P_j" */
#if ASKED
#define LATEREQ(i, j) \
	if \
	:: scdem[i] && hu == 0 && !asked[PEER(i, j)] -> \
		hu = M; \
		SEND(CH(i, j), REQ, h[i]); \
		asked[PEER(i, j)] = 1 \
	:: else -> skip \
	fi
#else
#define LATEREQ(i, j)	skip
#endif
#define RECVFREE(i, j) \
	:: d_step { q[CH(j, i)]?[FREE, hv] -> \
		q[CH(j, i)]?FREE, hv; \
		hu = used[PEER(i, j)] - hv; \
		LATEREQ(i, j); \
		used[PEER(i, j)] = hu; \
		if \
		:: scdem[i] -> \
			hs = k[i]; \
			hx = 0; \
			do \
			:: hx < N -> \
				if :: hx != i -> hs = hs + used[PEER(i, hx)] :: else -> skip fi; \
				hx++ \
			:: else -> break \
			od; \
			if \
			:: hs <= M -> scdem[i] = 0; ok[i] = 1 \
			:: else -> skip \
			fi \
		:: else -> skip \
		fi; \
		CHECK \
	   }

#define RECV(i, j)	RECVREQ(i, j) RECVFREE(i, j)

/* The protocol actions of process i: receiving from every peer. The
 * diagonal channel q[CH(i, i)] stays empty, so RECV(i, i) never fires. */
proctype Node(byte i)
{
end:
	do
	RECV(i, 0)
	RECV(i, 1)
#if N >= 3
	RECV(i, 2)
#endif
#if N >= 4
	RECV(i, 3)
#endif
#if N >= 5
	RECV(i, 4)
#endif
	od
}

/* The environment actions of process i: R requests, each followed by its
 * leave, then idle for ever (a valid end state). */
proctype App(byte i)
{
	REQUESTS(i); LEAVE(i);
#if R >= 2
	REQUESTS(i); LEAVE(i);
#endif
#if R >= 3
	REQUESTS(i); LEAVE(i);
#endif
#if R >= 4
	REQUESTS(i); LEAVE(i);
#endif
end:
	false
}

init
{
	byte p;
	atomic {
		for (p : 0 .. N-1) {
			run Node(p);
			run App(p)
		};
		p = 0
	}
}
