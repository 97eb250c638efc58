package explore

import (
	"errors"
	"fmt"
	"math"

	"github.com/ringcheck/ringcheck/model"
)

// PartialOrder configures the partial-order reduction of BFS: each state
// is expanded by the enabled steps of a stubborn set of actions (Valmari)
// computed from the system's access sets (System.Access), rather than by
// every enabled step. Every reachable deadlock stays reachable; with
// Invariants, so does every state whose invariants fail, and every
// faulty step.
type PartialOrder struct {
	// Invariants makes the reduction keep invariant violations: a state
	// whose stubborn set holds an enabled action that writes a slot an
	// invariant reads is expanded in full.
	Invariants bool
}

// PartialOrderApplies reports why partial-order reduction cannot run on
// sys with opts (nil: it can). The reasons name options, not flags.
func PartialOrderApplies(sys *model.System, opts *Options) error {
	switch {
	case sys.Access == nil:
		return errors.New("the model has no access sets (a spec written in Go, not in the ring language)")
	case sys.Daemon != model.Central:
		return fmt.Errorf("the %s daemon moves several processes at once; the reduction is defined for the central daemon", sys.Daemon)
	case opts.Fingerprints:
		return errors.New("with fingerprints the visited set gives no state ids, which the cycle proviso needs")
	case opts.Symmetry:
		return errors.New("it is not combined with symmetry reduction")
	}
	return nil
}

// PartialOrderReduces reports why partial-order reduction po can reduce
// no state of sys (nil: it may): keeping invariant violations, a state
// is expanded in full wherever its stubborn set holds an enabled action
// that writes a slot an invariant reads, so a system all of whose
// actions do is searched in full.
func PartialOrderReduces(sys *model.System, po *PartialOrder) error {
	if sys.Access == nil || !po.Invariants {
		return nil
	}
	t := newPORTables(sys, po)
	for _, v := range t.visible {
		if !v {
			return nil
		}
	}
	return errors.New("every action writes a variable or channel an invariant reads, so every state would be expanded in full")
}

// porTables are the static part of the reduction: the actions of every
// process as units (process, action), and for each the units it depends
// on.
type porTables struct {
	sys  *model.System
	base []int // first unit of each process
	proc []int32
	// dep[u]: the units u conflicts with (read/write or write/write on a
	// slot; two sends or two receives on a channel; a send and a receive
	// on a channel whose policy is not block).
	dep [][]int32
	// enabling[u]: the units that write a slot u's enabledness reads (a
	// necessary enabling set for any false condition of u).
	enabling [][]int32
	// conj[u][i]: the units that write a slot conjunct i of u reads; for
	// a receive's head, those that receive from its channel, and
	// headEmpty[u][i] those that send on it.
	conj, headEmpty [][][]int32
	nvars           model.Slot
	visible         []bool
	acc             []*model.ActionAccess
	// invariants: visibility counts.
	invariants bool
}

// chanUse is how a unit uses one slot.
type chanUse struct{ rd, wr, snd, rcv bool }

func newPORTables(sys *model.System, po *PartialOrder) *porTables {
	t := &porTables{sys: sys, invariants: po.Invariants}
	nslots := sys.Slots()
	t.nvars = model.Slot(nslots - len(sys.Channels))
	var uses []map[model.Slot]chanUse
	for p := range sys.Processes {
		t.base = append(t.base, len(t.proc))
		for a := range sys.Processes[p].Actions {
			x := &sys.Access.Actions[p][a]
			t.proc = append(t.proc, int32(p))
			t.acc = append(t.acc, x)
			m := map[model.Slot]chanUse{}
			for _, s := range x.Reads {
				u := m[s]
				u.rd = true
				m[s] = u
			}
			for _, s := range x.Writes {
				u := m[s]
				u.wr = true
				m[s] = u
			}
			for _, c := range x.Sends {
				s := sys.ChanSlot(c)
				u := m[s]
				u.snd = true
				m[s] = u
			}
			for _, c := range x.Receives {
				s := sys.ChanSlot(c)
				u := m[s]
				u.rcv = true
				m[s] = u
			}
			uses = append(uses, m)
		}
	}
	n := len(t.proc)
	writers := make([][]int32, nslots)
	for u, m := range uses {
		for s, use := range m {
			if use.wr || use.snd || use.rcv {
				writers[s] = append(writers[s], int32(u))
			}
		}
	}
	var anys []int32
	for u := range n {
		if t.acc[u].Any {
			anys = append(anys, int32(u))
		}
	}
	visible := make([]bool, nslots)
	for _, s := range sys.Access.Visible {
		visible[s] = true
	}
	t.dep = make([][]int32, n)
	t.enabling = make([][]int32, n)
	t.conj = make([][][]int32, n)
	t.headEmpty = make([][][]int32, n)
	t.visible = make([]bool, n)
	every := make([]int32, n)
	for u := range n {
		every[u] = int32(u)
	}
	for u := range n {
		x := t.acc[u]
		if x.Any {
			t.dep[u], t.enabling[u], t.visible[u] = every, every, true
			t.conj[u] = make([][]int32, len(x.Conjuncts))
			for i := range t.conj[u] {
				t.conj[u][i] = every
			}
			continue
		}
		for v := range n {
			if v != u && (t.acc[v].Any || t.conflict(uses[u], uses[v])) {
				t.dep[u] = append(t.dep[u], int32(v))
			}
		}
		// What u's enabledness reads: its reads, and the channels it
		// sends on (a send blocks on a full channel) or receives from.
		seen := map[int32]bool{}
		add := func(dst *[]int32, slots func(func(model.Slot))) {
			clear(seen)
			for _, a := range anys {
				seen[a] = true
				*dst = append(*dst, a)
			}
			slots(func(s model.Slot) {
				for _, w := range writers[s] {
					if !seen[w] {
						seen[w] = true
						*dst = append(*dst, w)
					}
				}
			})
		}
		add(&t.enabling[u], func(f func(model.Slot)) {
			for s := range uses[u] {
				f(s)
			}
		})
		t.conj[u] = make([][]int32, len(x.Conjuncts))
		t.headEmpty[u] = make([][]int32, len(x.Conjuncts))
		for i, c := range x.Conjuncts {
			if c.Head {
				// A send cannot change the head of a channel that is
				// not empty; a receive cannot fill an empty one.
				s := c.Reads[0]
				for _, a := range anys {
					t.conj[u][i] = append(t.conj[u][i], a)
					t.headEmpty[u][i] = append(t.headEmpty[u][i], a)
				}
				for _, w := range writers[s] {
					if t.acc[w].Any {
						continue
					}
					use := uses[w][s]
					if use.wr || use.rcv {
						t.conj[u][i] = append(t.conj[u][i], w)
					}
					if use.wr || use.snd {
						t.headEmpty[u][i] = append(t.headEmpty[u][i], w)
					}
				}
				continue
			}
			add(&t.conj[u][i], func(f func(model.Slot)) {
				for _, s := range c.Reads {
					f(s)
				}
			})
			// The received message changes with a receive only.
			for _, ch := range c.Received {
				s := sys.ChanSlot(ch)
				for _, w := range writers[s] {
					if use := uses[w][s]; (use.wr || use.rcv) && !seen[w] {
						seen[w] = true
						t.conj[u][i] = append(t.conj[u][i], w)
					}
				}
			}
		}
		for s, use := range uses[u] {
			if (use.wr || use.snd || use.rcv) && visible[s] {
				t.visible[u] = true
			}
		}
	}
	return t
}

// conflict reports whether two units' uses of slots conflict.
func (t *porTables) conflict(a, b map[model.Slot]chanUse) bool {
	nvars := model.Slot(t.sys.Slots() - len(t.sys.Channels))
	for s, x := range a {
		y, ok := b[s]
		if !ok {
			continue
		}
		xw, yw := x.wr || x.snd || x.rcv, y.wr || y.snd || y.rcv
		if !(xw && (y.rd || yw) || yw && (x.rd || xw)) {
			continue
		}
		if s >= nvars && t.sys.Channels[s-nvars].Overflow == model.Block {
			// A send and a receive, each doing nothing else with the
			// channel, commute where both are enabled: the channel is
			// then neither empty nor full.
			pureSend := func(u chanUse) bool { return u.snd && !u.rcv && !u.rd && !u.wr }
			pureRecv := func(u chanUse) bool { return u.rcv && !u.snd && !u.rd && !u.wr }
			if pureSend(x) && pureRecv(y) || pureRecv(x) && pureSend(y) {
				continue
			}
		}
		return true
	}
	return false
}

// porStep is a step found while expanding a state, kept until the
// stubborn set says whether to yield it.
type porStep struct {
	unit       int32
	move       model.Move
	overflow   bool
	rangeFault string
}

// porWorker is a worker's scratch space for the reduction.
type porWorker struct {
	t *porTables
	// ex is the worker's expander, which tests conjuncts.
	ex     *model.Expander
	steps  []porStep
	states []*model.State
	step   model.Step
	// enabled[u]: unit u has an enabled step in the state; sel[u]: it is
	// in the chosen set.
	enabled, sel []bool
	// in: generation marks of the units in the set being built.
	in    []uint32
	gen   uint32
	stack []int32
	// conj caches the value of each conjunct in the state: 0 not yet
	// evaluated, 1 false, 2 true or unknown.
	conj      [][]uint8
	best, cur []int32
	packed    []uint64
	// reduced: some state the worker expanded had fewer successors
	// than enabled steps.
	reduced bool
}

func newPORWorker(t *porTables, ex *model.Expander) *porWorker {
	n := len(t.proc)
	pw := &porWorker{t: t, ex: ex, enabled: make([]bool, n), sel: make([]bool, n), in: make([]uint32, n),
		conj: make([][]uint8, n), packed: make([]uint64, t.sys.Words())}
	pw.step.Moves = make([]model.Move, 1)
	for u := range n {
		pw.conj[u] = make([]uint8, len(t.acc[u].Conjuncts))
	}
	return pw
}

// expandReduced expands w.cur by the enabled steps of a stubborn set,
// calling w.yieldFn for each, and returns how many it yielded. A state
// is expanded in full where no set of fewer enabled actions qualifies,
// or where the reduced expansion would lead back to a state of this
// level or an earlier one (the cycle proviso: every cycle of the reduced
// graph then holds a fully expanded state, as the edge into its least id
// leaves a state of a level as deep or deeper).
func (e *bfs) expandReduced(w *worker) (int, error) {
	pw := w.por
	t := pw.t
	sys := e.sys
	pw.steps = pw.steps[:0]
	n, err := w.ex.Expand(w.cur, func(st *model.Step, next *model.State) bool {
		i := len(pw.steps)
		if i == len(pw.states) {
			pw.states = append(pw.states, sys.NewState())
		}
		pw.states[i].CopyFrom(next)
		m := st.Moves[0]
		pw.steps = append(pw.steps, porStep{unit: int32(t.base[m.Proc] + int(m.Action)), move: m, overflow: st.Overflow, rangeFault: st.RangeFault})
		return true
	})
	if err != nil || n == 0 {
		return n, err
	}
	clear(pw.enabled)
	nenabled := 0
	for _, s := range pw.steps {
		if !pw.enabled[s.unit] {
			pw.enabled[s.unit] = true
			nenabled++
		}
	}
	full := !pw.choose(w.cur, nenabled)
	if !full {
		for i, s := range pw.steps {
			if !pw.sel[s.unit] {
				continue
			}
			sys.Pack(pw.states[i], pw.packed)
			if id := e.seen.findWith(pw.packed, hashWords(pw.packed), &w.look); id >= 0 && id < e.levelEnd {
				full = true
				break
			}
		}
	}
	if !full {
		pw.reduced = true
	}
	yielded := 0
	for i := range pw.steps {
		s := &pw.steps[i]
		if !full && !pw.sel[s.unit] {
			continue
		}
		yielded++
		pw.step.Moves[0] = s.move
		pw.step.Overflow, pw.step.RangeFault = s.overflow, s.rangeFault
		w.yieldFn(&pw.step, pw.states[i])
	}
	return yielded, nil
}

// PartialOrderTrial is how many states BFS expands, at least, before it
// stops a partial-order reduction that has reduced none of them (at the
// end of a level: the states expanded, and so the decision, are the
// same for any number of workers). Where the stubborn sets always span
// every enabled action, computing them only costs time.
const PartialOrderTrial = 1 << 15

// porLevelDone is called at the end of each level, whose states are the
// ids below end: it stops the reduction once PartialOrderTrial states
// have been expanded without a state reduced. Every state is then
// expanded in full, which any stubborn set allows.
func (e *bfs) porLevelDone(end int64) {
	if e.por == nil || e.porIdle > 0 {
		return
	}
	for _, w := range e.ws {
		if w.por.reduced {
			return
		}
	}
	if end < PartialOrderTrial {
		return
	}
	e.porIdle = end
	for _, w := range e.ws {
		w.por = nil
	}
}

// choose finds the stubborn set with the fewest enabled actions, trying
// each enabled action as the seed in unit order (the first of the
// smallest wins), and marks its enabled actions in sel. It reports false
// where none has fewer enabled actions than the state (or, keeping
// invariants, none holds only invisible enabled actions): the state is
// then expanded in full.
func (pw *porWorker) choose(st *model.State, nenabled int) bool {
	for u := range pw.conj {
		clear(pw.conj[u])
	}
	clear(pw.sel)
	limit, found := nenabled, false
	for seed, on := range pw.enabled {
		if !on {
			continue
		}
		if count, ok := pw.close(st, int32(seed), limit); ok {
			limit, found = count, true
			pw.best = append(pw.best[:0], pw.cur...)
			if count == 1 {
				break
			}
		}
	}
	if found {
		for _, u := range pw.best {
			pw.sel[u] = true
		}
	}
	return found
}

// close builds the stubborn set of seed: an enabled action in it brings
// every action it conflicts with, a disabled one a necessary enabling
// set (the writers of the slots of one of its false conjuncts, the one
// that brings fewest new actions, or of every slot its enabledness
// reads). It gives up, reporting false, once the set holds limit enabled
// actions or, keeping invariants, a visible enabled one; otherwise it
// returns the number of enabled actions in the set, listed in cur.
func (pw *porWorker) close(st *model.State, seed int32, limit int) (int, bool) {
	t := pw.t
	if pw.gen++; pw.gen == 0 {
		clear(pw.in)
		pw.gen = 1
	}
	pw.cur = pw.cur[:0]
	pw.stack = append(pw.stack[:0], seed)
	pw.in[seed] = pw.gen
	push := func(us []int32) {
		for _, v := range us {
			if pw.in[v] != pw.gen {
				pw.in[v] = pw.gen
				pw.stack = append(pw.stack, v)
			}
		}
	}
	for len(pw.stack) > 0 {
		u := pw.stack[len(pw.stack)-1]
		pw.stack = pw.stack[:len(pw.stack)-1]
		if !pw.enabled[u] {
			push(pw.necessary(st, u))
			continue
		}
		if t.invariants && t.visible[u] {
			return 0, false
		}
		if pw.cur = append(pw.cur, u); len(pw.cur) >= limit {
			return 0, false
		}
		push(t.dep[u])
	}
	return len(pw.cur), true
}

// necessary returns a necessary enabling set of the disabled unit u in
// st: of its conjuncts known false in st, the writers of the one that
// adds fewest actions to the set being built (each is within the
// writers of every slot u's enabledness reads); of none, those.
func (pw *porWorker) necessary(st *model.State, u int32) []int32 {
	t := pw.t
	var best []int32
	bestNew := math.MaxInt
	for i, c := range t.acc[u].Conjuncts {
		if c.Holds == nil {
			continue
		}
		v := pw.conj[u][i]
		if v == 0 {
			v = 2
			if h, known := pw.ex.Holds(st, int(t.proc[u]), c.Holds); known && !h {
				v = 1
			}
			pw.conj[u][i] = v
		}
		if v != 1 {
			continue
		}
		nes := t.conj[u][i]
		if c.Head && st.Lens[c.Reads[0]-t.nvars] == 0 {
			nes = t.headEmpty[u][i]
		}
		if k := pw.fresh(nes, bestNew); k < bestNew {
			best, bestNew = nes, k
			if k == 0 {
				break
			}
		}
	}
	if best == nil {
		return t.enabling[u]
	}
	return best
}

// fresh counts the units of us not yet in the set being built, up to
// limit.
func (pw *porWorker) fresh(us []int32, limit int) int {
	k := 0
	for _, v := range us {
		if pw.in[v] != pw.gen {
			if k++; k >= limit {
				return k
			}
		}
	}
	return k
}

// StubbornSteps returns the steps that partial-order reduction po
// expands st by, as labels "pP:LABEL" in expansion order, before the
// cycle proviso (which may expand st in full within a search); every
// enabled step when no smaller stubborn set qualifies.
func StubbornSteps(sys *model.System, st *model.State, po *PartialOrder) ([]string, error) {
	if err := PartialOrderApplies(sys, &Options{}); err != nil {
		return nil, fmt.Errorf("partial-order reduction: %w", err)
	}
	t := newPORTables(sys, po)
	ex := sys.NewExpander()
	pw := newPORWorker(t, ex)
	var steps []porStep
	if _, err := ex.Expand(st, func(s *model.Step, _ *model.State) bool {
		m := s.Moves[0]
		steps = append(steps, porStep{unit: int32(t.base[m.Proc] + int(m.Action)), move: m})
		return true
	}); err != nil {
		return nil, err
	}
	nenabled := 0
	for _, s := range steps {
		if !pw.enabled[s.unit] {
			pw.enabled[s.unit] = true
			nenabled++
		}
	}
	full := nenabled == 0 || !pw.choose(st, nenabled)
	var out []string
	for _, s := range steps {
		if full || pw.sel[s.unit] {
			out = append(out, fmt.Sprintf("p%d:%s", s.move.Proc, sys.ActionOf(s.move).Label(int(s.move.Choice))))
		}
	}
	return out, nil
}
