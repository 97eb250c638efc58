/*
 * thiare.pml: Promela twin of specs/thiare/thiare.go, for checking
 * ringcheck's model against SPIN's and comparing their throughput (see
 * spin_test.go and bench_test.go).
 *
 * Thiare's several-tokens mutual exclusion on a logical ring (seed 002,
 * section 4, Rules 1-4), at most R requests per process, action by action
 * as the Go spec's package comment and code define them.
 *
 * Ring and channels. N nodes on a unidirectional ring; link[i] is the FIFO
 * channel FROM node i TO node (i+1) mod N, of capacity CMAX = N*R*F with F
 * = 1+RESEND: every token that can ever exist (the Go spec's Cmax=0), so
 * no send ever blocks (a send inside a d_step must not block). Node i
 * receives on link[(i+N-1) mod N] and sends on link[i]. A message is a
 * token { seq, pid, res, resend }, the Go spec's Token fields in order, so
 * a channel's contents are the Go channel's, field for field.
 *
 * Variables (globals, as the Go model's), per node i and resource r with
 * SI(i, r) = i*RES + r: H[i] (HSeqNumSeen, 0..S with S = N*R), used[i]
 * (requests made, 0..R), state[SI] (IDLE, WAITING, CS), seq[SI] (SeqNum of
 * the node's copy of its own token, 0: none), resent[SI] (Rule 4: the
 * current request's token was resent; always 0 when RESEND = 0, where the
 * Go model does not declare it), and the QCAP = (N-1)*R*F slots of Q_i^r,
 * q[SI*QCAP + k]: 0 empty, else the Go spec's token code 1 + ((seq-1)*N +
 * pid)*F + resend, sorted increasingly (by decreasing priority), empty
 * slots last, exactly as the Go spec keeps them.
 *
 * With RESEND = 1, intransit[SI(p, r)] is the number of tokens of node p
 * for resource r in the channels, kept up to date in the same d_steps
 * that send and receive them; it is the timeout's global guard ("no token
 * of i for r in any channel"). It is a function of the channel contents,
 * so it distinguishes no two states the Go model identifies and adds no
 * state. The scratch variables of the d_steps (hs, hp, hr, hrs, hcode,
 * hcur, hfound, k) are hidden: not part of the state vector, always
 * written before being read inside one d_step.
 *
 * Actions of node i, each ONE d_step (one indivisible SPIN transition = one
 * ringcheck step):
 *
 *   request(r)  used < R && state[r] == IDLE -> H++; used++; seq[r] = H;
 *               state[r] = WAITING; resent[r] = 0; send (H, i, r, 0)
 *   receipt     nempty(in) -> receive (s, p, r, rs); H = max(H, s); then
 *               exactly one of the Go spec's six receipt actions, which
 *               are mutually exclusive and, together, enabled iff the
 *               incoming channel is not empty (classify returns a case
 *               for every head token), so their union is one d_step whose
 *               deterministic if picks the case classify picks:
 *      enter    p == i && state[r] == WAITING -> state[r] = CS
 *      stale    p == i && state[r] != WAITING -> (deleted)
 *      discard  rs == 1 && a token of p is in Q_i^r -> (deleted)
 *      pass     state[r] == IDLE -> send (REPLACE ? H : s, p, r, rs)
 *      queue    state[r] == CS, or WAITING with Pri(s, p) < Pri(seq[r], i)
 *               -> sorted insertion into Q_i^r
 *      forward  state[r] == WAITING with Pri(s, p) > Pri(seq[r], i) ->
 *               send (s, p, r, rs)
 *   leave(r)    state[r] == CS -> send Q_i^r's tokens in slot order
 *               (highest priority first), empty it; state[r] = IDLE,
 *               seq[r] = 0, resent[r] = 0
 *   timeout(r)  RESEND only: state[r] == WAITING && !resent[r] &&
 *               intransit[SI(i, r)] == 0 -> resent[r] = 1;
 *               send (seq[r], i, r, 1)
 *
 * Pri(s1, p1) > Pri(s2, p2) iff s1 < s2 || (s1 == s2 && p1 < p2). A full
 * queue (impossible with QCAP, where the Go spec would write an
 * out-of-domain value and fault) is an assertion violation.
 *
 * Safety. The Go spec's invariant mutex ("for every resource r, at most
 * one node is in CS(r)") can only become false on an enter, the one step
 * into CS(r); enter asserts that no other node is in CS(r), so pan reports
 * an assertion violation exactly when ringcheck reaches a configuration
 * violating mutex. The assertions read the state and write only the
 * hidden k, so they change no count; pan -A ignores them.
 *
 * Node(i) loops at one control state, so the stored states are the Go
 * model's configurations.
 *
 * End states. The Go spec's valid end state is "every node has made its R
 * requests and is idle for every resource, and no token is in transit"
 * (ALLSERVED below); any other configuration with no step is a deadlock.
 * The nodes' loop carries an end label, so that a configuration with no
 * step is a valid end state for them; the process Watch sits at an end
 * label too and has a single statement, timeout && !ALLSERVED, which pan
 * makes executable only when no other statement is: exactly in the Go
 * model's deadlocks. It then moves Watch to a location with no end label
 * and no statement, where pan (without -E) reports an invalid end state.
 * In a deadlock-free instance the statement never fires, so Watch stays
 * put and adds neither states nor transitions; an ALLSERVED configuration
 * has no step in either model (no request, leave, receipt or timeout is
 * enabled) and pan accepts it as a valid end state.
 *
 * State count: pan does not store the intermediate states of a d_step or
 * of init's atomic sequence, so pan stores exactly the states ringcheck
 * reaches from init, plus ONE: the global initial state in which init has
 * not run yet. pan's transitions are ringcheck's + 2 (init's atomic step,
 * and the arrival pan counts for its root state). See spin_test.go.
 *
 * Initial configuration (Go spec's Initial): every node idle, H = used =
 * 0, no copy, queues and channels empty: the globals' zero values. init
 * starts the processes in one atomic sequence.
 *
 * Defaults N=3, R=2, RES=1, RESEND=0, REPLACE=1 (the Go spec's defaults,
 * n=3 requests=2 resources=1 resend=0 replace=1 Cmax=0); each can be set
 * with -D, e.g.  spin -DN=5 -DR=1 -DREPLACE=0 -a thiare.pml
 */

#ifndef N
#define N 3
#endif
#ifndef R
#define R 2
#endif
#ifndef RES
#define RES 1
#endif
#ifndef RESEND
#define RESEND 0
#endif
#ifndef REPLACE
#define REPLACE 1
#endif
#if N < 2 || N > 5
#error "N must be in 2..5"
#endif
#if R < 1 || R > 3
#error "R must be in 1..3"
#endif
#if RES < 1 || RES > 2
#error "RES must be 1 or 2"
#endif
#if RESEND < 0 || RESEND > 1 || REPLACE < 0 || REPLACE > 1
#error "RESEND and REPLACE must be 0 or 1"
#endif

#define F	(1 + RESEND)
#define CMAX	(N * R * F)
#define QCAP	((N - 1) * R * F)

#define IDLE	0
#define WAITING	1
#define CS	2

chan link[N] = [CMAX] of { byte, byte, byte, byte };

byte H[N];
byte used[N];
byte state[N * RES];
byte seq[N * RES];
bit resent[N * RES];
byte q[N * RES * QCAP];
#if RESEND
byte intransit[N * RES];	/* tokens of (pid, res) in the channels */
#endif

/* scratch of the d_steps: not in the state vector */
hidden byte hs, hp, hr, hrs;	/* the fields of a token */
hidden byte hcode, hcur;
hidden byte hfound;
hidden byte k;

#define IN(i)		link[((i) + N - 1) % N]
#define OUT(i)		link[i]
#define SI(i, r)	((i) * RES + (r))
#define QI(i, r, j)	(SI(i, r) * QCAP + (j))
#define CODE(s, p, rs)	(1 + (((s) - 1) * N + (p)) * F + (rs))

#if RESEND
#define TRANSIT(p, r)	intransit[SI(p, r)]++
#define UNTRANSIT(p, r)	intransit[SI(p, r)]--
#else
#define TRANSIT(p, r)	skip
#define UNTRANSIT(p, r)	skip
#endif

/* send token (s, p, r, rs) to node i's successor */
#define SEND(i, s, p, r, rs) \
	OUT(i)!s, p, r, rs; \
	TRANSIT(p, r)

/* hs, hp, hrs := the fields of queue code hcode */
#define DECODE \
	hrs = (hcode - 1) % F; \
	hs = (hcode - 1) / F / N + 1; \
	hp = ((hcode - 1) / F) % N

/* node i, resource r, valid end: made its R requests, idle */
#define DONE(i) \
	(used[i] == R && state[SI(i, 0)] == IDLE && \
	 (RES == 1 || state[SI(i, RES - 1)] == IDLE) && len(link[i]) == 0)
#if N == 2
#define ALLSERVED	(DONE(0) && DONE(1))
#elif N == 3
#define ALLSERVED	(DONE(0) && DONE(1) && DONE(2))
#elif N == 4
#define ALLSERVED	(DONE(0) && DONE(1) && DONE(2) && DONE(3))
#else
#define ALLSERVED	(DONE(0) && DONE(1) && DONE(2) && DONE(3) && DONE(4))
#endif

#define REQUEST(i, r) \
	:: d_step { used[i] < R && state[SI(i, r)] == IDLE -> \
		H[i]++; \
		used[i]++; \
		state[SI(i, r)] = WAITING; \
		seq[SI(i, r)] = H[i]; \
		resent[SI(i, r)] = 0; \
		SEND(i, H[i], i, r, 0) \
	   }

#define LEAVE(i, r) \
	:: d_step { state[SI(i, r)] == CS -> \
		k = 0; \
		do \
		:: k < QCAP && q[QI(i, r, k)] != 0 -> \
			hcode = q[QI(i, r, k)]; \
			DECODE; \
			SEND(i, hs, hp, r, hrs); \
			q[QI(i, r, k)] = 0; \
			k++ \
		:: else -> break \
		od; \
		state[SI(i, r)] = IDLE; \
		seq[SI(i, r)] = 0; \
		resent[SI(i, r)] = 0 \
	   }

#define TIMEOUT(i, r) \
	:: d_step { state[SI(i, r)] == WAITING && !resent[SI(i, r)] && intransit[SI(i, r)] == 0 -> \
		resent[SI(i, r)] = 1; \
		SEND(i, seq[SI(i, r)], i, r, 1) \
	   }

proctype Node(byte i)
{
end:
	do
	REQUEST(i, 0)
#if RES >= 2
	REQUEST(i, 1)
#endif
	/* receipt: enter, stale, discard, pass, queue or forward */
	:: d_step { nempty(IN(i)) ->
		IN(i)?hs, hp, hr, hrs;
		UNTRANSIT(hp, hr);
		H[i] = (hs > H[i] -> hs : H[i]);
		if
		:: hp == i ->
			if
			:: state[SI(i, hr)] == WAITING ->			/* enter */
				/* mutex: no other node is in CS(r) */
				k = 0;
				do
				:: k < N ->
					assert(k == i || state[SI(k, hr)] != CS);
					k++
				:: else -> break
				od;
				state[SI(i, hr)] = CS
			:: else -> skip						/* stale */
			fi
		:: else ->
			/* Rule 4: a resent token whose originator has a token
			 * in Q_i^r is discarded */
			hfound = 0;
			if
			:: hrs == 1 ->
				k = 0;
				do
				:: k < QCAP && q[QI(i, hr, k)] != 0 ->
					if
					:: ((q[QI(i, hr, k)] - 1) / F) % N == hp -> hfound = 1
					:: else -> skip
					fi;
					k++
				:: else -> break
				od
			:: else -> skip
			fi;
			if
			:: hfound -> skip					/* discard */
			:: else ->
				if
				:: state[SI(i, hr)] == IDLE ->			/* pass */
#if REPLACE
					SEND(i, H[i], hp, hr, hrs)
#else
					SEND(i, hs, hp, hr, hrs)
#endif
				:: state[SI(i, hr)] == WAITING &&
				   (hs < seq[SI(i, hr)] || (hs == seq[SI(i, hr)] && hp < i)) ->
					SEND(i, hs, hp, hr, hrs)		/* forward */
				:: else ->					/* queue */
					/* sorted insertion */
					hcode = CODE(hs, hp, hrs);
					k = 0;
					do
					:: k < QCAP && q[QI(i, hr, k)] == 0 ->
						q[QI(i, hr, k)] = hcode;
						hcode = 0;
						break
					:: k < QCAP && q[QI(i, hr, k)] != 0 ->
						if
						:: hcode < q[QI(i, hr, k)] ->
							hcur = q[QI(i, hr, k)];
							q[QI(i, hr, k)] = hcode;
							hcode = hcur
						:: else -> skip
						fi;
						k++
					:: else -> break
					od;
					assert(hcode == 0)	/* no free slot */
				fi
			fi
		fi
	   }
	LEAVE(i, 0)
#if RES >= 2
	LEAVE(i, 1)
#endif
#if RESEND
	TIMEOUT(i, 0)
#if RES >= 2
	TIMEOUT(i, 1)
#endif
#endif
	od
}

/* Reports the Go model's deadlocks as invalid end states (see above). */
proctype Watch()
{
end:
	timeout && !ALLSERVED;
	false	/* no end label: pan reports an invalid end state */
}

init
{
	byte p;
	atomic {
		for (p : 0 .. N-1) {
			run Node(p)
		};
		run Watch();
		p = 0
	}
}
