package klddhl_test

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/ringcheck/ringcheck/explore"
	"github.com/ringcheck/ringcheck/model"
	"github.com/ringcheck/ringcheck/specs/spectest"
	"github.com/ringcheck/ringcheck/specs/spintest"
)

// twin is the Promela twin of the spec.
const twin = "testdata/klddhl.pml"

// ddhlPanFlags are the pan options for a search of about states states: a
// depth bound above the depth pan's depth-first search reaches (a fifth of
// the states for n=3 L=2 K=2, at most 100000 on the tests' instances; the
// callers check that pan did not report it too small) and a hash table
// with about as many slots as states.
func ddhlPanFlags(states int64) []string {
	return []string{fmt.Sprintf("-m%d", max(states, 100000)), fmt.Sprintf("-w%d", bits.Len64(uint64(states)))}
}

// fastCompile is spintest.CFlags with -O0, which compiles pan.c about
// four times faster than -O2 (0.6 s against 2 s): pan runs about half as
// fast, which costs less on the searches of the tests, under a second.
func fastCompile() []string { return append(spintest.CFlags(), "-O0") }

// reachableDDHL counts the states and transitions ringcheck reaches from
// the initial configuration of the catalogue's n, L, K (Cmax = L+3).
func reachableDDHL(t testing.TB, n, l, k int) *explore.Result {
	t.Helper()
	sys, _ := build(t, n, l, k)
	return spectest.Reachable(t, sys)
}

// TestSPINTwinAgrees checks testdata/klddhl.pml against ringcheck's model
// from the initial configuration.
//
// Relation found: pan (safety mode, no -E) stores exactly ringcheck's
// reachable count + 1 and makes ringcheck's transitions + 2:
//
//	n=2 L=1 K=1       8541 =    8540 + 1,    21622 =    21620 + 2
//	n=2 L=2 K=2     101161 =  101160 + 1,   279002 =   279000 + 2
//	n=3 L=1 K=1      93721 =   93720 + 1,   316502 =   316500 + 2
//	n=3 L=2 K=2    2230975 = 2230974 + 1,  8439122 =  8439120 + 2
//
// The extra state is SPIN's global initial state, before init's atomic
// sequence has filled link[0] and started the processes; pan does not store
// the intermediate states of that sequence nor of the actions' d_steps,
// every proctype loops at one control state, the process parameters and
// init's local are constant, the scratch variables are hidden, and privs
// (the timeout's guard) is a function of the channels, so every other
// stored state is one of ringcheck's configurations. The extra transitions
// are init's atomic step and the arrival pan counts for its root state;
// every other pan transition is one ringcheck move (one d_step per action
// and request choice). pan finds no invalid end state: SPIN agrees with
// ringcheck that no reachable configuration is a deadlock.
//
// n=3 L=2 K=2, the instance of the spec's claims, takes about 12 s of the
// two checkers' time on two cores, so the benchmarks check it
// (BenchmarkReachable and BenchmarkSPIN want 2230974 and 2230974 + 1
// states).
func TestSPINTwinAgrees(t *testing.T) {
	for _, in := range []struct{ n, l, k int }{{2, 1, 1}, {2, 2, 2}, {3, 1, 1}} {
		t.Run(fmt.Sprintf("n=%d,L=%d,K=%d", in.n, in.l, in.k), func(t *testing.T) {
			ours := reachableDDHL(t, in.n, in.l, in.k)
			m := spintest.CompileWith(t, twin, map[string]int{"N": in.n, "L": in.l, "K": in.k}, fastCompile())
			r := m.Run(t, ddhlPanFlags(ours.States)...)
			t.Logf("pan: %d stored, %d transitions, %.2fs, %.1f MB; ringcheck: %d states, %d transitions, %v",
				r.StatesStored, r.Transitions, r.Seconds, r.MemoryMB, ours.States, ours.Transitions, ours.Elapsed)
			if r.Errors != 0 || !r.Complete || r.DepthTruncated {
				t.Fatalf("pan: %d errors (%s), complete %v, depth truncated %v; want a full search with no deadlock\n%s",
					r.Errors, r.Violation, r.Complete, r.DepthTruncated, r.Output)
			}
			if want := ours.States + 1; r.StatesStored != want {
				t.Errorf("pan stored %d states, want ringcheck's %d + 1 (SPIN's pre-init state) = %d", r.StatesStored, ours.States, want)
			}
			if want := ours.Transitions + 2; r.Transitions != want {
				t.Errorf("pan made %d transitions, want ringcheck's %d + 2 = %d", r.Transitions, ours.Transitions, want)
			}
		})
	}
}

// faultState builds the configuration the twin's init makes with
// -DFAULT=f (see the header of testdata/klddhl.pml).
func faultState(t testing.TB, sys *model.System, v vars, f int) *model.State {
	t.Helper()
	n, l, k, m := v.N, v.L, v.K, v.M
	s := sys.NewState()
	push := func(ch model.ChanID, msg model.Msg) {
		t.Helper()
		if !s.Push(ch, msg) {
			t.Fatalf("fault %d: channel %d is full", f, ch)
		}
	}
	first, last := v.Out[0], v.Out[n-1]
	switch f {
	case 1:
		s.Set(0, v.Reset, 1)
		s.Set(0, v.Need, 1)
		s.Set(1, v.Need, k+1)
		s.Set(1, v.Cnt, 1)
		s.Set(1, v.Prio, 1)
		for p := 0; p < n; p++ {
			s.Set(p, v.C, 4)
		}
		push(first, sys.Msg(v.Token))
		push(first, sys.Msg(v.Priv, 4, 0, 0, 0))
		for range l + 3 {
			push(last, sys.Msg(v.Priv, 2, 0, 0, 0))
		}
	case 2:
		s.Set(0, v.Need, 1)
		s.Set(0, v.Cnt, 1)
		s.Set(0, v.Tok, 1)
		for p := 1; p < n; p++ {
			s.Set(p, v.C, m-1)
		}
		push(first, sys.Msg(v.Pusher))
		push(first, sys.Msg(v.Priority))
		for range l {
			push(first, sys.Msg(v.Priv, m-1, 0, 0, 0))
		}
		push(first, sys.Msg(v.Priv, 0, 0, 0, 0))
	default:
		t.Fatalf("no fault %d", f)
	}
	if err := sys.Validate(s); err != nil {
		t.Fatal(err)
	}
	return s
}

// reach is what reachableFrom finds.
type reach struct {
	states, transitions int64
	// dead counts the reachable configurations without a step, lost the
	// steps in which a send found its channel full (and lost its message).
	dead, lost int64
	// fired counts the transitions of each action, by name.
	fired map[string]int64
}

// reachableFrom explores the configurations reachable from start: their
// number, the transitions between them (every successor of every
// reachable configuration, as explore.BFS counts them), and which actions
// fire. explore.BFS only starts from the spec's initial configurations,
// so this is a plain breadth-first search on packed configurations. sys
// should be built with the Error overflow policy, which is drop (the
// spec's) plus a mark on the steps that lose a message.
func reachableFrom(t testing.TB, sys *model.System, start *model.State) reach {
	t.Helper()
	words := sys.Words()
	if words > 4 {
		t.Fatalf("configurations take %d words, reachableFrom handles 4", words)
	}
	type key [4]uint64
	pack := func(s *model.State) key {
		var k key
		sys.Pack(s, k[:words])
		return k
	}
	r := reach{fired: map[string]int64{}}
	seen := map[key]struct{}{pack(start): {}}
	queue := []key{pack(start)}
	ex := sys.NewExpander()
	cur := sys.NewState()
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		sys.Unpack(k[:words], cur)
		n, err := ex.Expand(cur, func(step *model.Step, next *model.State) bool {
			mv := step.Moves[0]
			r.fired[sys.Processes[mv.Proc].Actions[mv.Action].Name]++
			if step.Overflow {
				r.lost++
			}
			nk := pack(next)
			if _, ok := seen[nk]; !ok {
				seen[nk] = struct{}{}
				queue = append(queue, nk)
			}
			return true
		})
		if err != nil {
			t.Fatal(err)
		}
		r.transitions += int64(n)
		if n == 0 {
			r.dead++
		}
	}
	r.states = int64(len(seen))
	return r
}

// TestSPINTwinAgreesAfterFaults compares the twin with ringcheck's model
// from the two fault configurations of the twin's -DFAULT (built for
// ringcheck by faultState). From the initial configuration every
// reachable configuration is legitimate (see TestPaperClaimsFromInit), so
// cancel, flush, the timeout, resets, marked and stale privileges and
// sends lost to a full channel never happen there and TestSPINTwinAgrees
// does not compare them; from these faults they do (the test checks that
// every action fires and that sends are lost), and the same relation
// holds: pan stores ringcheck's count + 1 and makes its transitions + 2,
// and neither finds a configuration without a step.
//
//	                 FAULT=1                      FAULT=2
//	n=2 L=1 K=1    9284 =   9283 + 1            9172 =   9171 + 1
//	n=2 L=2 K=2  102493 = 102492 + 1          104931 = 104930 + 1
//	n=3 L=1 K=1   99020 =  99019 + 1           97227 =  97226 + 1
func TestSPINTwinAgreesAfterFaults(t *testing.T) {
	overflow := model.Error
	for _, in := range []struct{ n, l, k int }{{2, 1, 1}, {2, 2, 2}, {3, 1, 1}} {
		sys, v := build(t, in.n, in.l, in.k, overflow)
		fired := map[string]int64{}
		for _, f := range []int{1, 2} {
			t.Run(fmt.Sprintf("n=%d,L=%d,K=%d,FAULT=%d", in.n, in.l, in.k, f), func(t *testing.T) {
				ours := reachableFrom(t, sys, faultState(t, sys, v, f))
				for name, c := range ours.fired {
					fired[name] += c
				}
				m := spintest.CompileWith(t, twin, map[string]int{"N": in.n, "L": in.l, "K": in.k, "FAULT": f}, fastCompile())
				r := m.Run(t, ddhlPanFlags(ours.states)...)
				t.Logf("pan: %d stored, %d transitions; ringcheck: %d states, %d transitions, %d losing a message, %d without a step",
					r.StatesStored, r.Transitions, ours.states, ours.transitions, ours.lost, ours.dead)
				if r.Errors != 0 || !r.Complete || r.DepthTruncated {
					t.Fatalf("pan: %d errors (%s), complete %v, depth truncated %v\n%s",
						r.Errors, r.Violation, r.Complete, r.DepthTruncated, r.Output)
				}
				if ours.dead != 0 {
					t.Errorf("ringcheck: %d reachable configurations without a step, pan none", ours.dead)
				}
				if ours.lost == 0 {
					t.Errorf("no send is lost to a full channel: the fault does not test the drop policy")
				}
				if want := ours.states + 1; r.StatesStored != want {
					t.Errorf("pan stored %d states, want ringcheck's %d + 1 = %d", r.StatesStored, ours.states, want)
				}
				if want := ours.transitions + 2; r.Transitions != want {
					t.Errorf("pan made %d transitions, want ringcheck's %d + 2 = %d", r.Transitions, ours.transitions, want)
				}
			})
		}
		for _, proc := range sys.Processes {
			for _, act := range proc.Actions {
				if fired[act.Name] == 0 {
					t.Errorf("n=%d L=%d K=%d: %s never fires after the faults: the comparison does not cover it", in.n, in.l, in.k, act.Name)
				}
			}
		}
		t.Logf("n=%d L=%d K=%d: transitions by action %v", in.n, in.l, in.k, fired)
	}
}
