package explore

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/ringcheck/ringcheck/model"
)

// PartialOrder configures the partial-order reduction of BFS: each state
// is expanded by the enabled steps of a stubborn set of actions (Valmari)
// computed from the system's access sets (System.Access), rather than by
// every enabled step. Every reachable deadlock stays reachable; with
// Invariants, so does every state whose invariants fail, and every
// faulty step.
type PartialOrder struct {
	// Invariants makes the reduction keep invariant violations and
	// faulty steps: a state whose stubborn set holds an enabled action
	// that writes a slot an invariant reads is expanded in full, and so
	// is one whose reduced successors lead back to its level or an
	// earlier one (the cycle proviso). Without it the reduction keeps
	// deadlocks alone, which need no proviso.
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
// process as units (process, action), and for each, as bit sets of units,
// the units it depends on and its necessary enabling sets.
type porTables struct {
	sys   *model.System
	base  []int // first unit of each process
	proc  []int32
	words int // words of a unit set
	// dep[u]: the units u conflicts with (read/write or write/write on a
	// slot; two sends or two receives on a channel; a send and a receive
	// on a channel whose policy is not block).
	dep []unitSet
	// room[u]: the units u conflicts with where u's sends find room:
	// dep[u] less the receives that conflict with u only as receives
	// from a drop or error channel u sends on (and only sends on); lossy[u]
	// lists those channels (none: room[u] is dep[u]).
	room  []unitSet
	lossy [][]model.ChanID
	// enabling[u]: the units that write a slot u's enabledness reads (a
	// necessary enabling set for any false condition of u).
	enabling []unitSet
	// conj[u][i]: the units that write a slot conjunct i of u reads; for
	// a receive's head, those that receive from its channel, and
	// headEmpty[u][i] those that send on it.
	conj, headEmpty [][]unitSet
	nvars           model.Slot
	// visible[u]: u writes a slot an invariant reads; visibleSet holds
	// those units.
	visible    []bool
	visibleSet unitSet
	acc        []*model.ActionAccess
	// invariants: visibility counts, and so does the cycle proviso.
	invariants bool
}

// unitSet is a set of units, a bit per unit.
type unitSet []uint64

func (s unitSet) has(u int32) bool { return s[u>>6]&(1<<(u&63)) != 0 }
func (s unitSet) add(u int32)      { s[u>>6] |= 1 << (u & 63) }

// fresh counts the units of x not in s.
func (s unitSet) fresh(x unitSet) int {
	k := 0
	for i, w := range x {
		k += bits.OnesCount64(w &^ s[i])
	}
	return k
}

// newUnitSet returns the set of the units us of a table of n units.
func newUnitSet(n int, us []int32) unitSet {
	s := make(unitSet, (n+63)/64)
	for _, u := range us {
		s.add(u)
	}
	return s
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
	dep := make([][]int32, n)
	room := make([][]int32, n)
	lossy := make([][]model.ChanID, n)
	enabling := make([][]int32, n)
	conj := make([][][]int32, n)
	headEmpty := make([][][]int32, n)
	t.visible = make([]bool, n)
	every := make([]int32, n)
	for u := range n {
		every[u] = int32(u)
	}
	for u := range n {
		x := t.acc[u]
		if x.Any {
			dep[u], room[u], enabling[u], t.visible[u] = every, every, every, true
			conj[u] = make([][]int32, len(x.Conjuncts))
			headEmpty[u] = make([][]int32, len(x.Conjuncts))
			for i := range conj[u] {
				conj[u][i], headEmpty[u][i] = every, every
			}
			continue
		}
		for v := range n {
			if v == u {
				continue
			}
			hard, soft := true, false
			if !t.acc[v].Any {
				hard, soft = t.conflict(uses[u], uses[v])
			}
			if hard || soft {
				dep[u] = append(dep[u], int32(v))
			}
			if hard {
				room[u] = append(room[u], int32(v))
			}
		}
		if len(room[u]) < len(dep[u]) {
			for _, c := range x.Sends {
				if sys.Channels[c].Overflow != model.Block {
					lossy[u] = append(lossy[u], c)
				}
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
		add(&enabling[u], func(f func(model.Slot)) {
			for s := range uses[u] {
				f(s)
			}
		})
		conj[u] = make([][]int32, len(x.Conjuncts))
		headEmpty[u] = make([][]int32, len(x.Conjuncts))
		for i, c := range x.Conjuncts {
			if c.Head {
				// A send cannot change the head of a channel that is
				// not empty; a receive cannot fill an empty one.
				s := c.Reads[0]
				for _, a := range anys {
					conj[u][i] = append(conj[u][i], a)
					headEmpty[u][i] = append(headEmpty[u][i], a)
				}
				for _, w := range writers[s] {
					if t.acc[w].Any {
						continue
					}
					use := uses[w][s]
					if use.wr || use.rcv {
						conj[u][i] = append(conj[u][i], w)
					}
					if use.wr || use.snd {
						headEmpty[u][i] = append(headEmpty[u][i], w)
					}
				}
				continue
			}
			add(&conj[u][i], func(f func(model.Slot)) {
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
						conj[u][i] = append(conj[u][i], w)
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
	t.words = (n + 63) / 64
	t.dep = make([]unitSet, n)
	t.room = make([]unitSet, n)
	t.lossy = lossy
	t.enabling = make([]unitSet, n)
	t.conj = make([][]unitSet, n)
	t.headEmpty = make([][]unitSet, n)
	for u := range n {
		t.dep[u] = newUnitSet(n, dep[u])
		t.room[u] = newUnitSet(n, room[u])
		t.enabling[u] = newUnitSet(n, enabling[u])
		t.conj[u] = make([]unitSet, len(conj[u]))
		t.headEmpty[u] = make([]unitSet, len(conj[u]))
		for i := range conj[u] {
			t.conj[u][i] = newUnitSet(n, conj[u][i])
			t.headEmpty[u][i] = newUnitSet(n, headEmpty[u][i])
		}
	}
	t.visibleSet = make(unitSet, t.words)
	for u, v := range t.visible {
		if v {
			t.visibleSet.add(int32(u))
		}
	}
	return t
}

// conflict reports whether two units' uses of slots conflict: hard, in
// every state; soft, only as a send of a and a receive of b on a drop or
// error channel, each doing nothing else with it, which conflict only
// where the send finds the channel full.
//
// On a block channel, a send and a receive, each doing nothing else with
// the channel, commute where both are enabled: the channel is then
// neither empty nor full. On a drop or error channel a send is enabled
// even where the channel is full, and it loses the message (or fails)
// there, where after the receive it would not. Strong stubborn sets ask
// more than commuting in the state itself: an enabled action a of the
// set must commute with every step of any path of steps outside the set
// (D1). Let a send on such a channel c and find room for every message
// it sends in the state. Every other send on c conflicts with a, so it
// is in the set too, and a step outside the set never sends on c: along
// such a path c only loses messages, a's sends still find room (what a
// sends depends only on slots a reads, which only actions in the set
// write), and each receive from c on the path takes a head that a's
// sends leave in place (c is not empty where the receive is enabled),
// so a commutes with it, and neither disables the other. The receives
// from c therefore need not join the set for a (they are in room[a]'s
// complement); a receive in the set still brings every send on c, which
// it conflicts with. A send that finds no room (a drop, or an error
// policy's faulty step) keeps every receive from c in the set.
func (t *porTables) conflict(a, b map[model.Slot]chanUse) (hard, soft bool) {
	nvars := model.Slot(t.sys.Slots() - len(t.sys.Channels))
	pureSend := func(u chanUse) bool { return u.snd && !u.rcv && !u.rd && !u.wr }
	pureRecv := func(u chanUse) bool { return u.rcv && !u.snd && !u.rd && !u.wr }
	for s, x := range a {
		y, ok := b[s]
		if !ok {
			continue
		}
		xw, yw := x.wr || x.snd || x.rcv, y.wr || y.snd || y.rcv
		if !(xw && (y.rd || yw) || yw && (x.rd || xw)) {
			continue
		}
		if s >= nvars {
			switch {
			case t.sys.Channels[s-nvars].Overflow == model.Block:
				if pureSend(x) && pureRecv(y) || pureRecv(x) && pureSend(y) {
					continue
				}
			case pureSend(x) && pureRecv(y):
				soft = true
				continue
			}
		}
		return true, false
	}
	return false, soft
}

// porStep is a step found while expanding a state, kept until the
// stubborn set says whether to yield it.
type porStep struct {
	unit       int32
	move       model.Move
	overflow   bool
	rangeFault string
}

// porWorker is a worker's scratch space for the reduction. It
// allocates nothing per state once its buffers have grown.
type porWorker struct {
	t *porTables
	// ex is the worker's expander, which tests conjuncts.
	ex     *model.Expander
	steps  []porStep
	states []*model.State
	step   model.Step
	// collect records a step of the state being expanded and its
	// successor (Expander.Expand's yield).
	collect func(*model.Step, *model.State) bool
	// enabled: the units with an enabled step in the state; sel: the
	// enabled units of the chosen set; roomy: the enabled units with
	// lossy channels none of whose steps leaves one of them full (their
	// sends found room).
	enabled, sel, roomy unitSet
	// in: the set being built; done: its units already closed over;
	// best: the enabled units of the smallest set found.
	in, done, best unitSet
	// conj caches the value of each conjunct in the state being
	// expanded: stamp<<2 | 1 false, stamp<<2 | 2 true or unknown, where
	// stamp is the state's; other values are stale.
	conj  [][]uint32
	stamp uint32
	// reduced: some state the worker expanded had fewer successors
	// than enabled steps.
	reduced bool
}

func newPORWorker(t *porTables, ex *model.Expander) *porWorker {
	n := len(t.proc)
	pw := &porWorker{t: t, ex: ex, enabled: make(unitSet, t.words), sel: make(unitSet, t.words), roomy: make(unitSet, t.words),
		in: make(unitSet, t.words), done: make(unitSet, t.words), best: make(unitSet, t.words),
		conj: make([][]uint32, n)}
	pw.step.Moves = make([]model.Move, 1)
	for u := range n {
		pw.conj[u] = make([]uint32, len(t.acc[u].Conjuncts))
	}
	sys := t.sys
	pw.collect = func(st *model.Step, next *model.State) bool {
		i := len(pw.steps)
		if i == len(pw.states) {
			pw.states = append(pw.states, sys.NewState())
		}
		pw.states[i].CopyFrom(next)
		m := st.Moves[0]
		pw.steps = append(pw.steps, porStep{unit: int32(t.base[m.Proc] + int(m.Action)), move: m, overflow: st.Overflow, rangeFault: st.RangeFault})
		return true
	}
	return pw
}

// markEnabled records the units of pw.steps as enabled, and those with
// lossy channels as roomy unless one of their steps leaves one of those
// channels full (a step that lost a message to a full channel, or whose
// sends filled it). It returns how many units are enabled.
func (pw *porWorker) markEnabled() int {
	t := pw.t
	clear(pw.enabled)
	clear(pw.roomy)
	nenabled := 0
	for _, s := range pw.steps {
		if !pw.enabled.has(s.unit) {
			pw.enabled.add(s.unit)
			nenabled++
			if len(t.lossy[s.unit]) > 0 {
				pw.roomy.add(s.unit)
			}
		}
	}
	for i, s := range pw.steps {
		if !pw.roomy.has(s.unit) {
			continue
		}
		for _, c := range t.lossy[s.unit] {
			if pw.states[i].Len(c) >= t.sys.Channels[c].Capacity {
				pw.roomy[s.unit>>6] &^= 1 << (s.unit & 63)
				break
			}
		}
	}
	return nenabled
}

// expandReduced expands w.cur by the enabled steps of a stubborn set,
// calling w.yieldFn for each, and returns how many it yielded. A state
// is expanded in full where no set of fewer enabled actions qualifies,
// or, keeping invariants, where the reduced expansion would lead back to
// a state of this level or an earlier one (the cycle proviso: every
// cycle of the reduced graph then holds a fully expanded state, as the
// edge into its least id leaves a state of a level as deep or deeper).
// A search for deadlocks alone needs no proviso: a path from a state to
// a deadlock holds an action of the state's stubborn set (a step outside
// the set leaves the set's enabled actions enabled, and the deadlock has
// none), and the first such action can be taken first (it commutes with
// the steps before it), which leaves a shorter path to the deadlock from
// a reduced successor.
func (e *bfs) expandReduced(w *worker) (int, error) {
	pw := w.por
	t := pw.t
	sys := e.sys
	pw.steps = pw.steps[:0]
	n, err := w.ex.Expand(w.cur, pw.collect)
	if err != nil || n == 0 {
		return n, err
	}
	full := !pw.choose(w.cur, pw.markEnabled())
	if !full && t.invariants {
		for i, s := range pw.steps {
			if !pw.sel.has(s.unit) {
				continue
			}
			sys.Pack(pw.states[i], w.packed)
			if id := e.seen.findWith(w.packed, hashWords(w.packed), &w.look); id >= 0 && id < e.levelEnd {
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
		if !full && !pw.sel.has(s.unit) {
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
// smallest wins; a set of one enabled action ends the search), and marks
// its enabled actions in sel. It reports false where none has fewer
// enabled actions than the state (or, keeping invariants, none holds
// only invisible enabled actions): the state is then expanded in full.
func (pw *porWorker) choose(st *model.State, nenabled int) bool {
	if pw.stamp++; pw.stamp >= 1<<30 {
		for u := range pw.conj {
			clear(pw.conj[u])
		}
		pw.stamp = 1
	}
	limit, found := nenabled, false
	for i, word := range pw.enabled {
		for word != 0 {
			seed := int32(i<<6 + bits.TrailingZeros64(word))
			word &= word - 1
			if pw.t.invariants && pw.t.visible[seed] {
				continue
			}
			if count, ok := pw.close(st, seed, limit); ok {
				limit, found = count, true
				for j := range pw.best {
					pw.best[j] = pw.in[j] & pw.enabled[j]
				}
				if count == 1 {
					break
				}
			}
		}
		if found && limit == 1 {
			break
		}
	}
	if found {
		copy(pw.sel, pw.best)
	}
	return found
}

// close builds in the stubborn set of seed: an enabled action in it
// brings every action it conflicts with, a disabled one a necessary
// enabling set (the writers of the slots of one of its false conjuncts,
// the one that brings fewest new actions, or of every slot its
// enabledness reads). It closes over the set's units in unit order, and
// gives up, reporting false, once the set holds limit enabled actions
// or, keeping invariants, a visible enabled one; otherwise it returns the
// number of enabled actions in the set.
func (pw *porWorker) close(st *model.State, seed int32, limit int) (int, bool) {
	t := pw.t
	clear(pw.in)
	clear(pw.done)
	pw.in.add(seed)
	for {
		u := int32(-1)
		for i := range pw.in {
			if w := pw.in[i] &^ pw.done[i]; w != 0 {
				u = int32(i<<6 + bits.TrailingZeros64(w))
				break
			}
		}
		if u < 0 {
			break
		}
		pw.done.add(u)
		var more unitSet
		switch {
		case pw.roomy.has(u):
			more = t.room[u]
		case pw.enabled.has(u):
			more = t.dep[u]
		default:
			more = pw.necessary(st, u)
		}
		count := 0
		for i, w := range more {
			pw.in[i] |= w
			count += bits.OnesCount64(pw.in[i] & pw.enabled[i])
		}
		if count >= limit {
			return 0, false
		}
		if t.invariants {
			for i, w := range t.visibleSet {
				if w&pw.in[i]&pw.enabled[i] != 0 {
					return 0, false
				}
			}
		}
	}
	count := 0
	for i, w := range pw.in {
		count += bits.OnesCount64(w & pw.enabled[i])
	}
	return count, true
}

// necessary returns a necessary enabling set of the disabled unit u in
// st: of its conjuncts known false in st, the writers of the one that
// adds fewest actions to the set being built (each is within the
// writers of every slot u's enabledness reads); of none, those. It tests
// a conjunct only where its writers would add fewer actions than the
// best found so far, and none where those of every slot add none.
func (pw *porWorker) necessary(st *model.State, u int32) unitSet {
	t := pw.t
	if pw.in.fresh(t.enabling[u]) == 0 {
		return t.enabling[u]
	}
	var best unitSet
	bestNew := math.MaxInt
	stamp := pw.stamp << 2
	for i, c := range t.acc[u].Conjuncts {
		if c.Holds == nil {
			continue
		}
		nes := t.conj[u][i]
		empty := c.Head && st.Lens[c.Reads[0]-t.nvars] == 0
		if empty {
			// A receive's head is false on an empty channel.
			nes = t.headEmpty[u][i]
		}
		k := pw.in.fresh(nes)
		if k >= bestNew {
			continue
		}
		v := pw.conj[u][i]
		if empty {
			v = stamp | 1
		} else if v&^3 != stamp {
			v = stamp | 2
			if h, known := pw.ex.Holds(st, int(t.proc[u]), c.Holds); known && !h {
				v = stamp | 1
			}
			pw.conj[u][i] = v
		}
		if v&3 != 1 {
			continue
		}
		best, bestNew = nes, k
		if k == 0 {
			break
		}
	}
	if best == nil {
		return t.enabling[u]
	}
	return best
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
	if _, err := ex.Expand(st, pw.collect); err != nil {
		return nil, err
	}
	steps := pw.steps
	nenabled := pw.markEnabled()
	full := nenabled == 0 || !pw.choose(st, nenabled)
	var out []string
	for _, s := range steps {
		if full || pw.sel.has(s.unit) {
			out = append(out, fmt.Sprintf("p%d:%s", s.move.Proc, sys.ActionOf(s.move).Label(int(s.move.Choice))))
		}
	}
	return out, nil
}
