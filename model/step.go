package model

import (
	"errors"
	"fmt"
	"github.com/ringcheck/ringcheck/internal/cacheline"
	"strings"
)

// Move is one process executing one alternative of one of its actions.
type Move struct {
	Proc, Action, Choice int32
}

// Step is what leads from a configuration to a successor: one move under the
// central daemon, several simultaneous ones under the distributed and
// synchronous daemons. Overflow is set when a send found its channel full
// under the Error policy: the step happened, and violated the channel bound.
// RangeFault, in a system that reports range faults (System.RangeFaults),
// says which assignment of the step left its variable's domain: the
// assignment was dropped, and the step violates safety.
type Step struct {
	Moves      []Move
	Overflow   bool
	RangeFault string
}

// Faulty reports whether the step violates safety by itself: it overflows
// a channel whose policy is error, or leaves a variable's domain.
func (st *Step) Faulty() bool { return st.Overflow || st.RangeFault != "" }

// Procs lists the processes that move in the step.
func (st *Step) Procs() []int {
	out := make([]int, len(st.Moves))
	for i, m := range st.Moves {
		out[i] = int(m.Proc)
	}
	return out
}

// Clone returns an independent copy of the step.
func (st *Step) Clone() Step {
	return Step{Moves: append([]Move(nil), st.Moves...), Overflow: st.Overflow, RangeFault: st.RangeFault}
}

// ActionOf returns the action a move executes.
func (s *System) ActionOf(m Move) *Action { return &s.Processes[m.Proc].Actions[m.Action] }

// Label names the step's actions, as "request(k=2)" or, for several
// processes, "p0:A p3:B".
func (s *System) Label(st *Step) string {
	if len(st.Moves) == 1 {
		m := st.Moves[0]
		return s.ActionOf(m).Label(int(m.Choice))
	}
	parts := make([]string, len(st.Moves))
	for i, m := range st.Moves {
		parts[i] = fmt.Sprintf("p%d:%s", m.Proc, s.ActionOf(m).Label(int(m.Choice)))
	}
	return strings.Join(parts, " ")
}

// Ctx is what a guard or an effect sees: the process it runs for, the
// configuration before the step (read) and, in effects, the one after it
// (written). A Ctx is valid only during the call it is passed to.
type Ctx struct {
	sys    *System
	lay    *layout
	tables []procTables
	// P is the process executing the action.
	P        int
	t        *procTables
	cur      *State
	next     *State
	blocked  bool
	overflow bool
	err      error
	// a Set outside the variable's domain, reported by the Expander
	badSet bool
	// rangeFault is the first assignment outside its domain of the current
	// effect, in a system that reports range faults
	rangeFault string
	badVar     VarID
	badVal     int
	// epoch counts the processes the context has been pointed at; a memo
	// entry is valid while its epoch is the context's.
	epoch uint64
	memo  []memoEntry
	// logging is set during the effect of an atomic action, whose
	// assignments are logged in written (flat indices), to refuse a
	// variable assigned twice in one step (atomic.go).
	logging bool
	written []int32
	// scratch is the space Scratch returns.
	scratch []int
}

// memoEntry is a value kept by SetMemo, and the epoch it belongs to.
type memoEntry struct {
	epoch uint64
	val   int
}

// procTables are what a Ctx needs of its process on the hot path.
type procTables struct {
	vars []int32 // declaration → flat index, or -1
	// reads: q*ndecl+v → flat index of q's variable v, or -1 when the
	// process may not read it (not linked, or not declared)
	reads      []int32
	pred, succ int
}

// at points the context at process p.
func (c *Ctx) at(p int) {
	c.P = p
	c.t = &c.tables[p]
	c.epoch++
}

// Memo returns the value SetMemo last stored in slot (0 ≤ slot <
// System.MemoSlots) for the executing process in the configuration before
// the step, and whether there is one. Values are forgotten each time the
// context moves to another process or configuration, so a spec may keep
// there what its guards and effects compute more than once (an expression
// of the configuration and the executing process).
func (c *Ctx) Memo(slot int) (int, bool) {
	m := &c.memo[slot]
	return m.val, m.epoch == c.epoch
}

// SetMemo stores v in slot until the context moves on (see Memo).
func (c *Ctx) SetMemo(slot, v int) { c.memo[slot] = memoEntry{epoch: c.epoch, val: v} }

// N is the number of processes.
func (c *Ctx) N() int { return c.lay.n }

// Succ is the executing process's successor on the ring.
func (c *Ctx) Succ() int { return c.t.succ }

// Pred is the executing process's predecessor on the ring.
func (c *Ctx) Pred() int { return c.t.pred }

// Get returns the executing process's variable v before the step.
func (c *Ctx) Get(v VarID) int { return int(c.cur.Vars[c.t.vars[v]]) }

// Read returns process q's variable v before the step. In the
// state-reading model a process reads its own variables and those of the
// processes linked to it (q → P in the topology); any other read is an
// error in the spec, which Expand reports.
func (c *Ctx) Read(q int, v VarID) int { return int(c.cur.Vars[c.t.reads[q*c.lay.ndecl+int(v)]]) }

// Config returns the whole configuration before the step, read-only. It is
// meant for the guards of Timeout actions, whose guard is a global
// predicate declared by the spec.
func (c *Ctx) Config() *State { return c.cur }

// Set assigns the executing process's variable v in the configuration after
// the step. A value outside v's domain is an error in the spec.
func (c *Ctx) Set(v VarID, val int) {
	i := c.t.vars[v]
	if uint64(val-int(c.lay.varMin[i])) >= c.lay.varSize[i] {
		if c.sys.RangeFaults {
			if c.rangeFault == "" {
				c.rangeFault = fmt.Sprintf("process %d sets %s to %d, outside %s", c.P, c.sys.Vars[v].Name, val, c.sys.Vars[v].Domain)
			}
			return
		}
		c.badSet, c.badVar, c.badVal = true, v, val
		return
	}
	c.next.Vars[i] = int32(val)
}

// In returns the channel from process q to the executing process.
func (c *Ctx) In(q int) ChanID {
	ch := c.sys.ChanBetween(q, c.P)
	if ch < 0 {
		c.fail(fmt.Errorf("process %d: no channel from %d", c.P, q))
	}
	return ch
}

// Out returns the channel from the executing process to process q.
func (c *Ctx) Out(q int) ChanID {
	ch := c.sys.ChanBetween(c.P, q)
	if ch < 0 {
		c.fail(fmt.Errorf("process %d: no channel to %d", c.P, q))
	}
	return ch
}

// Head returns the head of incoming channel ch before the step; ok is false
// when the channel is empty.
func (c *Ctx) Head(ch ChanID) (m Msg, ok bool) {
	if ch < 0 || c.cur.Lens[ch] == 0 {
		return 0, false
	}
	return c.cur.Msgs[c.lay.chanOff[ch]], true
}

// HeadIs reports whether incoming channel ch's head is a message of type t.
func (c *Ctx) HeadIs(ch ChanID, t MsgType) bool {
	m, ok := c.Head(ch)
	return ok && c.lay.letterType[m] == int32(t)
}

// Receive removes the head of incoming channel ch; the guard must have
// checked that there is one.
func (c *Ctx) Receive(ch ChanID) Msg {
	if ch < 0 || int(c.sys.Channels[ch].To) != c.P {
		c.fail(fmt.Errorf("process %d receives on a channel that does not lead to it", c.P))
		return 0
	}
	m, ok := c.next.Pop(ch)
	if !ok {
		c.fail(fmt.Errorf("process %d receives from empty channel %d→%d", c.P, c.sys.Channels[ch].From, c.P))
	}
	return m
}

// Send appends m to outgoing channel ch, following the channel's overflow
// policy if it is full.
func (c *Ctx) Send(ch ChanID, m Msg) {
	if ch < 0 || c.sys.Channels[ch].From != c.P {
		c.fail(fmt.Errorf("process %d sends on a channel that does not leave it", c.P))
		return
	}
	if c.lay.chanLocal[ch][m] < 0 {
		c.fail(fmt.Errorf("process %d sends a %s on channel %d→%d, which does not carry it", c.P, c.sys.Messages[c.lay.letterType[m]].Name, c.P, c.sys.Channels[ch].To))
		return
	}
	if c.next.Push(ch, m) {
		return
	}
	switch c.sys.Channels[ch].Overflow {
	case Block:
		c.blocked = true
	case Error:
		c.overflow = true
	}
}

// Msg builds a message of type t with the given field values, each of
// which must be in its field's domain (SendFields checks them).
func (c *Ctx) Msg(t MsgType, fields ...int) Msg { return c.sys.Msg(t, fields...) }

// SendFields sends a message of type t with the given field values on
// outgoing channel ch, as Send does. A value outside its field's domain
// is a fault of the spec, as a Set outside a variable's domain is: the
// send is dropped, and the step violates safety (a range fault) in a
// system that reports range faults, or the expansion fails otherwise.
func (c *Ctx) SendFields(ch ChanID, t MsgType, fields ...int) {
	mt := &c.lay.msgs[t]
	for i, f := range fields {
		if uint64(f-mt.fieldMin[i]) < uint64(mt.size[i]) {
			continue
		}
		m := &c.sys.Messages[t]
		fault := fmt.Sprintf("process %d sends %s with %s = %d, outside %s", c.P, m.Name, m.Fields[i].Name, f, m.Fields[i].Domain)
		if !c.sys.RangeFaults {
			c.fail(errors.New(fault))
			return
		}
		if c.rangeFault == "" {
			c.rangeFault = fault
		}
		return
	}
	c.Send(ch, c.sys.Msg(t, fields...))
}

// TypeOf returns m's message type.
func (c *Ctx) TypeOf(m Msg) MsgType { return MsgType(c.lay.letterType[m]) }

// Field returns field i of m.
func (c *Ctx) Field(m Msg, i int) int { return c.sys.Field(m, i) }

// effect runs alternative k of act, reporting a fault of the spec (a value
// set outside its domain, a bad channel) as an error.
func (c *Ctx) effect(act *Action, k int) error {
	c.logging = act.Atomic
	c.written = c.written[:0]
	act.Effect(c, k)
	c.logging = false
	if c.badSet {
		c.setFault()
	}
	if c.err != nil {
		return fmt.Errorf("action %s: %w", act.Label(k), c.err)
	}
	return nil
}

func (c *Ctx) setFault() {
	c.badSet = false
	c.fail(fmt.Errorf("process %d sets %s to %d, outside %s", c.P, c.sys.Vars[c.badVar].Name, c.badVal, c.sys.Vars[c.badVar].Domain))
}

// Fail reports a fault of the spec found while running a guard or an
// effect (a read or a send the topology does not allow, say): the
// expansion of the state stops with an error naming the action.
func (c *Ctx) Fail(err error) { c.fail(err) }

func (c *Ctx) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}

// Expander enumerates the successors of configurations under the system's
// daemon. It reuses its buffers, so it is not safe for concurrent use: give
// each goroutine its own.
type Expander struct {
	_       cacheline.Pad // no other object shares a line with the fields
	sys     *System
	ctx     Ctx
	next    *State
	step    Step
	enabled [][]Move // per process, its enabled moves (non-central daemons)
	active  []int    // processes with an enabled move
	// deltas[p][a] is what action a of process p may change (DeltaOf;
	// nil: unknown). Under the central daemon, next is a copy of the
	// state expanded, and a move's changes are undone in those fields
	// alone once its successor is yielded.
	deltas [][]*Delta
	// inbox[p][a], when not nil, holds for each alternative of action a
	// of process p the channel it receives from (Action.Source): an
	// alternative whose channel is empty is not a step.
	inbox [][][]ChanID
	_     cacheline.Pad
}

// NewExpander returns an Expander for the system under daemon d.
func (s *System) NewExpander() *Expander {
	n, nd := s.N(), len(s.Vars)
	tables := make([]procTables, n)
	for p := range tables {
		t := &tables[p]
		t.vars = s.layout.varIdx[p*nd : (p+1)*nd]
		t.reads = make([]int32, n*nd)
		for q := 0; q < n; q++ {
			for v := 0; v < nd; v++ {
				t.reads[q*nd+v] = -1
				if q == p || s.Topology.Linked(q, p) {
					t.reads[q*nd+v] = s.layout.varIdx[q*nd+v]
				}
			}
		}
		t.pred, t.succ = (p+n-1)%n, (p+1)%n
	}
	e := &Expander{
		sys:     s,
		ctx:     Ctx{sys: s, lay: &s.layout, tables: tables, memo: cacheline.Alone[memoEntry](s.MemoSlots)},
		next:    s.NewState(),
		enabled: make([][]Move, n),
		deltas:  s.Deltas(),
	}
	e.inbox = e.inboxes()
	return e
}

// inboxes returns the channel each alternative of each action with a
// Source receives from, process by process (nil where no action of the
// process has one, or its channel does not exist: the guard then runs,
// and reports the fault).
func (e *Expander) inboxes() [][][]ChanID {
	var out [][][]ChanID
	c := &e.ctx
	for p := range e.sys.Processes {
		c.at(p)
		for a, act := range e.sys.Processes[p].Actions {
			if act.Source == nil {
				continue
			}
			in := make([]ChanID, act.Choices)
			for k := range in {
				if in[k] = e.sys.ChanBetween(act.Source(c, k), p); in[k] < 0 {
					in = nil
					break
				}
			}
			if in == nil {
				continue
			}
			if out == nil {
				out = make([][][]ChanID, len(e.sys.Processes))
			}
			if out[p] == nil {
				out[p] = make([][]ChanID, len(e.sys.Processes[p].Actions))
			}
			out[p][a] = in
		}
	}
	return out
}

// waiting reports whether some channel of in holds a message.
func waiting(st *State, in []ChanID) bool {
	for _, ch := range in {
		if st.Lens[ch] != 0 {
			return true
		}
	}
	return false
}

// Expand calls yield once for each successor of st (possibly several times
// for the same successor, reached by different steps), in a deterministic
// order: by process, then action, then alternative. The step and the
// successor are valid only during the call; yield returns false to stop
// early. Expand returns the number of successors yielded, and an error if the
// spec misbehaved (a value outside its domain, a read the topology does not
// allow).
func (e *Expander) Expand(st *State, yield func(step *Step, next *State) bool) (n int, err error) {
	defer e.recoverSpecFault(&err)
	if e.sys.Daemon == Central {
		return e.central(st, yield)
	}
	return e.concurrent(st, yield)
}

// Count returns the number of steps enabled in st, the number Expand would
// yield, and the first faulty step (nil if none): one that overflows a
// channel bound or leaves a variable's domain.
// It runs every guard and effect, so a spec fault is reported as Expand
// would report it; but in a system without channels under the central
// daemon, where an effect can neither block nor overflow, it builds no
// successor: effects write into scratch space that is never read. The
// full-space sweep, which never stores successors, relies on it.
func (e *Expander) Count(st *State) (n int, overflow *Step, err error) {
	if len(e.sys.Channels) > 0 || e.sys.Daemon != Central {
		n, err = e.Expand(st, func(s *Step, _ *State) bool {
			if s.Faulty() && overflow == nil {
				c := s.Clone()
				overflow = &c
			}
			return true
		})
		return n, overflow, err
	}
	defer e.recoverSpecFault(&err)
	c := &e.ctx
	c.cur, c.next, c.err = st, e.next, nil
	for p := range e.sys.Processes {
		proc := &e.sys.Processes[p]
		c.at(p)
		taken := false // a protocol or timeout action of a FirstEnabledOnly process was enabled
		for a := range proc.Actions {
			act := &proc.Actions[a]
			if taken && act.Kind != Environment {
				continue
			}
			if !act.Guard(c) {
				if c.err != nil {
					return n, nil, e.wrap(c.err)
				}
				continue
			}
			for k := 0; k < act.Choices; k++ {
				if !c.allows(act, k) {
					if c.err != nil {
						return n, nil, e.wrap(c.err)
					}
					continue
				}
				c.rangeFault = ""
				if err := c.effect(act, k); err != nil {
					return n, nil, e.wrap(err)
				}
				if c.rangeFault != "" && overflow == nil {
					overflow = &Step{Moves: []Move{{Proc: int32(p), Action: int32(a), Choice: int32(k)}}, RangeFault: c.rangeFault}
				}
				n++
			}
			if proc.FirstEnabledOnly && act.Kind != Environment {
				taken = true
			}
		}
	}
	return n, overflow, nil
}

// Enabled returns the set of processes with an enabled step in st, as a
// bit mask (bit p for process p; the system has at most 64 processes). In
// a system without channels it evaluates guards only, as no effect can
// then block; otherwise it expands st.
func (e *Expander) Enabled(st *State) (mask uint64, err error) {
	if len(e.sys.Channels) > 0 {
		_, err = e.Expand(st, func(s *Step, _ *State) bool {
			for _, m := range s.Moves {
				mask |= 1 << m.Proc
			}
			return true
		})
		return mask, err
	}
	defer e.recoverSpecFault(&err)
	c := &e.ctx
	c.cur, c.next, c.err = st, e.next, nil
	for p := range e.sys.Processes {
		c.at(p)
		for a := range e.sys.Processes[p].Actions {
			if e.sys.Processes[p].Actions[a].Guard(c) {
				mask |= 1 << p
				break
			}
		}
	}
	return mask, c.err
}

// recoverSpecFault turns a run-time fault in a spec's guard or effect,
// such as reading a variable its process does not declare or a process it
// is not linked to (an index of -1 in the read tables), into an error.
func (e *Expander) recoverSpecFault(err *error) {
	if r := recover(); r != nil {
		*err = e.wrap(fmt.Errorf("fault in a guard or effect (a read of a variable the process does not declare, or of a process not linked to it?): %v", r))
	}
}

func (e *Expander) central(st *State, yield func(*Step, *State) bool) (int, error) {
	c := &e.ctx
	c.cur, c.next, c.err = st, e.next, nil
	if cap(e.step.Moves) == 0 {
		e.step.Moves = cacheline.Alone[Move](1)
	}
	e.step.Moves = e.step.Moves[:1]
	count := 0
	// next is a copy of st between moves: each move's changes are undone
	// in its Delta's fields, or by a whole copy when it has none.
	e.next.CopyFrom(st)
	for p := range e.sys.Processes {
		proc := &e.sys.Processes[p]
		c.at(p)
		var inbox [][]ChanID
		if e.inbox != nil {
			inbox = e.inbox[p]
		}
		taken := false // as in Count
		for a := range proc.Actions {
			act := &proc.Actions[a]
			if taken && act.Kind != Environment {
				continue
			}
			var in []ChanID
			if inbox != nil {
				in = inbox[a]
			}
			if in != nil && !waiting(st, in) {
				// Every alternative receives from an empty channel.
				continue
			}
			if !act.Guard(c) {
				if c.err != nil {
					return count, e.wrap(c.err)
				}
				continue
			}
			for k := 0; k < act.Choices; k++ {
				if in != nil && st.Lens[in[k]] == 0 {
					continue
				}
				if !c.allows(act, k) {
					if c.err != nil {
						return count, e.wrap(c.err)
					}
					continue
				}
				c.blocked, c.overflow, c.rangeFault = false, false, ""
				err := c.effect(act, k)
				if err == nil && !c.blocked {
					e.step.Moves[0] = Move{Proc: int32(p), Action: int32(a), Choice: int32(k)}
					e.step.Overflow, e.step.RangeFault = c.overflow, c.rangeFault
					count++
					if !yield(&e.step, e.next) {
						return count, nil
					}
				}
				e.undo(st, p, a)
				if err != nil {
					return count, e.wrap(err)
				}
			}
			if proc.FirstEnabledOnly && act.Kind != Environment {
				taken = true
			}
		}
	}
	return count, nil
}

// undo makes e.next a copy of st again after a move of action a of
// process p changed it.
func (e *Expander) undo(st *State, p, a int) {
	var d *Delta
	if e.deltas != nil {
		d = e.deltas[p][a]
	}
	if d == nil {
		e.next.CopyFrom(st)
		return
	}
	l := &e.sys.layout
	for _, i := range d.vars {
		e.next.Vars[i] = st.Vars[i]
	}
	for _, c := range d.chans {
		e.next.Lens[c] = st.Lens[c]
		off := int(l.chanOff[c])
		copy(e.next.Msgs[off:off+l.chanCap[c]], st.Msgs[off:off+l.chanCap[c]])
	}
}

// concurrent enumerates the steps of the distributed and synchronous
// daemons: a non-empty subset of the enabled processes (all of them, for the
// synchronous daemon) and one enabled move for each.
func (e *Expander) concurrent(st *State, yield func(*Step, *State) bool) (int, error) {
	c := &e.ctx
	c.cur, c.err = st, nil
	e.active = e.active[:0]
	for p := range e.sys.Processes {
		proc := &e.sys.Processes[p]
		c.at(p)
		e.enabled[p] = e.enabled[p][:0]
		taken := false // as in Count
		for a := range proc.Actions {
			act := &proc.Actions[a]
			if taken && act.Kind != Environment {
				continue
			}
			if !act.Guard(c) {
				if c.err != nil {
					return 0, e.wrap(c.err)
				}
				continue
			}
			for k := 0; k < act.Choices; k++ {
				if !c.allows(act, k) {
					if c.err != nil {
						return 0, e.wrap(c.err)
					}
					continue
				}
				e.enabled[p] = append(e.enabled[p], Move{Proc: int32(p), Action: int32(a), Choice: int32(k)})
			}
			if proc.FirstEnabledOnly && act.Kind != Environment {
				taken = true
			}
		}
		if len(e.enabled[p]) > 0 {
			e.active = append(e.active, p)
		}
	}
	if len(e.active) == 0 {
		return 0, nil
	}
	if len(e.active) > 30 {
		return 0, fmt.Errorf("%d processes enabled at once: the distributed daemon's subsets are too many to enumerate", len(e.active))
	}
	count := 0
	first, last := uint64(1), uint64(1)<<len(e.active)-1
	if e.sys.Daemon == Synchronous {
		first = last
	}
	choice := make([]int, len(e.active))
	for subset := first; subset <= last; subset++ {
		for i := range choice {
			choice[i] = 0
		}
		for {
			e.next.CopyFrom(st)
			c.next = e.next
			e.step.Moves = e.step.Moves[:0]
			e.step.Overflow, e.step.RangeFault = false, ""
			blocked := false
			for i, p := range e.active {
				if subset&(1<<i) == 0 {
					continue
				}
				m := e.enabled[p][choice[i]]
				act := &e.sys.Processes[p].Actions[m.Action]
				c.at(p)
				c.blocked, c.overflow, c.rangeFault = false, false, ""
				if err := c.effect(act, int(m.Choice)); err != nil {
					return count, e.wrap(err)
				}
				blocked = blocked || c.blocked
				e.step.Overflow = e.step.Overflow || c.overflow
				if e.step.RangeFault == "" {
					e.step.RangeFault = c.rangeFault
				}
				e.step.Moves = append(e.step.Moves, m)
			}
			if !blocked {
				count++
				if !yield(&e.step, e.next) {
					return count, nil
				}
			}
			// Next combination of choices within the subset.
			i := 0
			for ; i < len(e.active); i++ {
				if subset&(1<<i) == 0 {
					continue
				}
				choice[i]++
				if choice[i] < len(e.enabled[e.active[i]]) {
					break
				}
				choice[i] = 0
			}
			if i == len(e.active) {
				break
			}
		}
	}
	return count, nil
}

// Apply replays step from st into dst, checking that every move is enabled
// in st. It is how traces are validated and how a saved step is re-executed.
func (e *Expander) Apply(st *State, step *Step, dst *State) error {
	found := false
	_, err := e.Expand(st, func(s *Step, next *State) bool {
		if len(s.Moves) != len(step.Moves) {
			return true
		}
		for i := range s.Moves {
			if s.Moves[i] != step.Moves[i] {
				return true
			}
		}
		dst.CopyFrom(next)
		found = true
		return false
	})
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("step %s is not enabled", e.sys.Label(step))
	}
	return nil
}

func (e *Expander) wrap(err error) error {
	return fmt.Errorf("spec %s, process %d: %w", e.sys.Name, e.ctx.P, err)
}
