package model

import (
	"context"
	"errors"
	"fmt"
	"github.com/ringcheck/ringcheck/internal/cacheline"
	"math/bits"

	"github.com/ringcheck/ringcheck/budget"
)

// VarID names a variable declaration; the same VarID denotes the variable in
// every process that declares it.
type VarID int

// ChanID names a channel.
type ChanID int

// MsgType names a message type.
type MsgType int

// Msg is a message: its type and field values packed into one letter of the
// system's message alphabet. Build one with System.Msg and take it apart with
// System.TypeOf and System.Field.
type Msg uint32

// ActionKind tells protocol actions from those of the environment.
type ActionKind int

// The kinds of action.
const (
	// Protocol actions are the algorithm's own.
	Protocol ActionKind = iota
	// Environment actions model the application around the protocol:
	// requesting resources, leaving the critical section.
	Environment
	// Timeout actions have a guard over the whole configuration (read with
	// Ctx.Config), as a spec-declared global predicate.
	Timeout
)

// String returns the kind's name.
func (k ActionKind) String() string {
	switch k {
	case Protocol:
		return "protocol"
	case Environment:
		return "environment"
	case Timeout:
		return "timeout"
	}
	return fmt.Sprintf("kind(%d)", int(k))
}

// Liveness says what a fairness assumption obliges an action to do.
type Liveness int

// The liveness roles of actions.
const (
	// Scheduled actions follow the fairness chosen for the check (none,
	// weak or strong): the protocol's own actions.
	Scheduled Liveness = iota
	// Finite actions are always at least weakly fair, whatever the chosen
	// fairness: "critical sections are finite", so a process in its
	// critical section eventually leaves it.
	Finite
	// Optional actions are never obliged to happen: an idle process may
	// stay idle forever rather than request.
	Optional
)

// String names the role.
func (l Liveness) String() string {
	switch l {
	case Scheduled:
		return "scheduled"
	case Finite:
		return "finite"
	case Optional:
		return "optional"
	}
	return fmt.Sprintf("liveness(%d)", int(l))
}

// Action is a guarded action. Guard reads the configuration before the step;
// Effect, called only when Guard holds, reads the configuration before the
// step and writes the one after it. An action with Choices > 1 is a family of
// alternatives, one step each (an idle process may request any k in 1..K);
// ChoiceLabel names alternative i in traces.
type Action struct {
	Name string
	Kind ActionKind
	// Liveness is the action's role under fairness (Scheduled by default).
	Liveness    Liveness
	Choices     int
	ChoiceLabel func(choice int) string
	Guard       func(c *Ctx) bool
	Effect      func(c *Ctx, choice int)
	// Allows, when set, says which alternatives are steps where Guard
	// holds: alternative choice is one only where Allows holds too (a
	// guard that depends on the choice; Guard then holds where some
	// alternative is allowed). Nil: every alternative.
	Allows func(c *Ctx, choice int) bool
	// Source, when set, is the process from which the executing process
	// receives when it takes alternative choice, found without reading
	// the configuration (from c.P, c.Pred(), c.Succ() and constants):
	// the alternative is not a step while the channel from Source is
	// empty, so the expansion passes over it without running Guard or
	// Allows. Nil: the action receives nothing, or from a process the
	// configuration decides.
	Source func(c *Ctx, choice int) int
	// Atomic marks an action whose effect may assign variables of the
	// executing process's peers (Ctx.SetOf) in the same step as its own:
	// the whole effect is one step, in which no process's variable is
	// assigned twice. Such an action is defined under the central daemon
	// only.
	Atomic bool
}

// Label names alternative choice of the action, as "request(k=2)".
func (a *Action) Label(choice int) string {
	if a.Choices <= 1 {
		return a.Name
	}
	if a.ChoiceLabel != nil {
		return a.Name + "(" + a.ChoiceLabel(choice) + ")"
	}
	return fmt.Sprintf("%s(%d)", a.Name, choice)
}

// Process is one process of a system: the variables it declares (as indices
// into System.Vars) and its actions in declaration order.
type Process struct {
	ID               int
	Vars             []VarID
	Actions          []Action
	FirstEnabledOnly bool
}

// Overflow is the policy for a send to a full channel.
type Overflow int

// The overflow policies.
const (
	// Block: the sending action is not enabled while the channel is full.
	Block Overflow = iota
	// Drop: the message is lost.
	Drop
	// Error: the message is lost and the step violates the channel bound.
	Error
)

// String returns the policy's name as used on the command line.
func (o Overflow) String() string {
	switch o {
	case Block:
		return "block"
	case Drop:
		return "drop"
	case Error:
		return "error"
	}
	return fmt.Sprintf("overflow(%d)", int(o))
}

// ParseOverflow parses "block", "drop" or "error".
func ParseOverflow(s string) (Overflow, error) {
	switch s {
	case "block":
		return Block, nil
	case "drop":
		return Drop, nil
	case "error":
		return Error, nil
	}
	return 0, fmt.Errorf("overflow policy %q is not one of block, drop, error", s)
}

// Channel is a FIFO channel from one process to another. Types lists the
// message types it may carry (all of the system's when empty); the fewer, the
// smaller the configuration space.
type Channel struct {
	From, To int
	Capacity int
	Overflow Overflow
	Types    []MsgType
}

// MessageType declares a message type and its fields.
type MessageType struct {
	Name   string
	Fields []Var
}

// Daemon is the scheduler that chooses which enabled processes move.
type Daemon int

// The daemons.
const (
	// Central: one enabled process moves per step.
	Central Daemon = iota
	// Distributed: any non-empty subset of the enabled processes moves.
	Distributed
	// Synchronous: every enabled process moves.
	Synchronous
)

// String returns the daemon's name as used on the command line.
func (d Daemon) String() string {
	switch d {
	case Central:
		return "central"
	case Distributed:
		return "distributed"
	case Synchronous:
		return "synchronous"
	}
	return fmt.Sprintf("daemon(%d)", int(d))
}

// ParseDaemon parses "central", "distributed" or "synchronous".
func ParseDaemon(s string) (Daemon, error) {
	switch s {
	case "central":
		return Central, nil
	case "distributed":
		return Distributed, nil
	case "synchronous":
		return Synchronous, nil
	}
	return 0, fmt.Errorf("daemon %q is not one of central, distributed, synchronous", s)
}

// Predicate is a named state predicate. Holds must be a pure function of the
// state: engines call it from several goroutines at once.
type Predicate struct {
	Name  string
	Doc   string
	Holds func(s *State) bool
	// Abstraction marks an invariant on which the model's abstraction of
	// the algorithm rests (counters kept modulo a bound, say): where it
	// fails, the model no longer stands for the algorithm, so a liveness
	// verdict over reachable states where it fails decides nothing.
	Abstraction bool
}

// ProcessPredicate is a named predicate of one process in a configuration,
// such as "p is requesting" or "p is in its critical section". Holds must
// be a pure function: engines call it from several goroutines at once.
type ProcessPredicate struct {
	Name  string
	Doc   string
	Holds func(s *State, p int) bool
}

// System is a complete, immutable model: topology, processes, channels,
// predicates and initial configurations. Build it with a Builder.
type System struct {
	Name string
	// Generated marks a system whose guards, effects and predicates are
	// Go generated from its instance (package lang/gogen), rather than
	// closures compiled at run time or Go written by hand.
	Generated bool
	// RangeFaults makes an assignment outside its variable's domain a
	// violation of safety (the step's RangeFault) rather than an error of
	// the spec: a user's algorithm may be wrong, where an encoding written
	// in Go may not.
	RangeFaults bool
	// MemoSlots is the number of values each Ctx keeps for the spec's
	// guards and effects between two processes or configurations (see
	// Ctx.Memo).
	MemoSlots  int
	Topology   Topology
	Daemon     Daemon
	Vars       []Var
	Processes  []Process
	Messages   []MessageType
	Channels   []Channel
	Invariants []Predicate
	// Legitimate is the legitimacy predicate L of self-stabilization (nil if
	// the spec declares none).
	Legitimate *Predicate
	// LegitimateConfigurations, if set, enumerates every configuration in
	// which Legitimate holds, so that closure can be decided where the full
	// configuration space is too large to sweep (see
	// Builder.LegitimateConfigurations).
	LegitimateConfigurations Enumerator
	// DeriveLegitimateConfigurations, if set, derives an enumerator of
	// the legitimate configurations when closure needs one and
	// LegitimateConfigurations is nil: a spec loaded from a .ring file
	// derives it from its legitimacy predicate (see EnumeratorSource).
	DeriveLegitimateConfigurations EnumeratorSource
	// ClosureFrom, if set, narrows closure to the legitimate
	// configurations in which it holds: the spec's reading of where L is
	// closed (see Builder.ClosureFrom). Convergence still ends in all of L.
	ClosureFrom *Predicate
	// Start is the start predicate of a check from start: it starts from
	// every configuration in which it holds (nil: the spec declares none;
	// see Builder.Start).
	Start *Predicate
	// ValidEnd marks the states in which having no enabled action is not a
	// deadlock (nil: there are none).
	ValidEnd *Predicate
	// ProcessPredicates are the spec's named per-process predicates, for
	// leads-to properties; starvation uses "requesting" and "inCS".
	ProcessPredicates []ProcessPredicate
	// PredicateFault, if set, returns the first failure met while
	// evaluating a predicate (a division by zero in a spec's expression):
	// a predicate cannot return an error, so one that fails holds and
	// keeps its failure for this. A check that ends with a failure kept
	// has no verdict: the failure is its error.
	PredicateFault func() error
	// Access, when set, is what each action reads and writes, for
	// partial-order reduction (nil: unknown, and no reduction).
	Access *Access
	// Symmetry is the group of process permutations the system is
	// invariant under (nil: none declared); Build checks that it maps
	// the topology, the variables and the channels to themselves, and
	// Canonizer maps a configuration to its orbit's representative.
	Symmetry *Symmetry

	initial []*State
	layout  layout
	group   *group
}

// N is the number of processes.
func (s *System) N() int { return len(s.Processes) }

// Initial returns copies of the system's initial configurations.
func (s *System) Initial() []*State {
	out := make([]*State, len(s.initial))
	for i, st := range s.initial {
		out[i] = st.Clone()
	}
	return out
}

// NewState returns a configuration with every variable at its domain's
// minimum and every channel empty.
func (s *System) NewState() *State {
	st := &State{
		// Each worker writes its states at every step: no two share a
		// cache line.
		Vars: cacheline.Alone[int32](s.layout.nvars),
		Msgs: cacheline.Alone[Msg](s.layout.nmsgs),
		Lens: cacheline.Alone[int32](len(s.Channels)),
		lay:  &s.layout,
	}
	for i, v := range s.layout.varDecl {
		st.Vars[i] = int32(s.Vars[v].Domain.Min)
	}
	return st
}

// Msg builds a message of type t with the given field values.
func (s *System) Msg(t MsgType, fields ...int) Msg {
	mt := &s.layout.msgs[t]
	letter := mt.base
	for i, f := range fields {
		letter += uint32(f-mt.fieldMin[i]) * mt.radix[i]
	}
	return Msg(letter)
}

// FieldTable tabulates the fields of every letter of message type t:
// tab[(m-base)*len(fields)+i] is field i of letter m, a lookup where
// Field takes two divisions. ok is false for a type of more than
// maxLetters letters, whose fields are read with Field.
func (s *System) FieldTable(t MsgType, maxLetters int) (tab []int32, base Msg, ok bool) {
	fields := s.Messages[t].Fields
	count, lo := 1, make([]int, len(fields))
	for i, f := range fields {
		count *= f.Domain.Size()
		lo[i] = f.Domain.Min
		if count > maxLetters {
			return nil, 0, false
		}
	}
	base = s.Msg(t, lo...)
	tab = make([]int32, count*len(fields))
	vals := append([]int(nil), lo...)
	for range count {
		off := int(s.Msg(t, vals...) - base)
		if off < 0 || off >= count {
			return nil, 0, false
		}
		for i, v := range vals {
			tab[off*len(vals)+i] = int32(v)
		}
		// Next combination of field values.
		for i := range vals {
			if vals[i]++; vals[i] <= fields[i].Domain.Max {
				break
			}
			vals[i] = lo[i]
		}
	}
	return tab, base, true
}

// TypeOf returns m's message type.
func (s *System) TypeOf(m Msg) MsgType { return MsgType(s.layout.letterType[m]) }

// Field returns field i of m.
func (s *System) Field(m Msg, i int) int {
	mt := &s.layout.msgs[s.layout.letterType[m]]
	return int((uint32(m)-mt.base)/mt.radix[i]%mt.size[i]) + mt.fieldMin[i]
}

// ChanBetween returns the channel from p to q, or -1 if there is none.
func (s *System) ChanBetween(p, q int) ChanID {
	n := s.N()
	if p < 0 || q < 0 || p >= n || q >= n {
		return -1
	}
	return s.layout.chanIdx[p*n+q]
}

// HasVar reports whether process p declares variable v.
func (s *System) HasVar(p int, v VarID) bool {
	return s.layout.varIdx[p*len(s.Vars)+int(v)] >= 0
}

// VarIndex returns the index of process p's variable v in State.Vars, or
// -1 if p does not declare v.
func (s *System) VarIndex(p int, v VarID) int {
	return int(s.layout.varIdx[p*len(s.Vars)+int(v)])
}

// ProcessPredicateByName looks up a per-process predicate.
func (s *System) ProcessPredicateByName(name string) (*ProcessPredicate, bool) {
	for i := range s.ProcessPredicates {
		if s.ProcessPredicates[i].Name == name {
			return &s.ProcessPredicates[i], true
		}
	}
	return nil, false
}

// VarByName returns the declaration index of the named variable.
func (s *System) VarByName(name string) (VarID, bool) {
	for i, v := range s.Vars {
		if v.Name == name {
			return VarID(i), true
		}
	}
	return -1, false
}

// Builder declares a System. Its methods record declarations; Build checks
// them all and reports every problem it finds.
type Builder struct {
	sys  System
	errs []error
	init []func(*System, *State)
}

// NewBuilder starts a system of n processes on the given topology, under
// the central daemon.
func NewBuilder(name string, kind TopologyKind, n int) *Builder {
	b := &Builder{sys: System{Name: name, Topology: Topology{Kind: kind, N: n}}}
	if n < 1 || n > 64 {
		b.errs = append(b.errs, fmt.Errorf("number of processes %d is outside 1..64", n))
		n = 0
	}
	b.sys.Processes = make([]Process, n)
	for p := range b.sys.Processes {
		b.sys.Processes[p].ID = p
	}
	return b
}

// Var declares a variable in the listed processes (every process if none is
// listed) and returns its VarID.
func (b *Builder) Var(name string, d Domain, procs ...int) VarID {
	if err := d.validate(); err != nil {
		b.errs = append(b.errs, fmt.Errorf("variable %s: %w", name, err))
	}
	id := VarID(len(b.sys.Vars))
	b.sys.Vars = append(b.sys.Vars, Var{Name: name, Domain: d})
	b.forProcs(procs, func(p *Process) { p.Vars = append(p.Vars, id) })
	return id
}

// Action adds an action to the listed processes (every process if none is
// listed), after the actions they already have.
func (b *Builder) Action(a Action, procs ...int) {
	if a.Guard == nil || a.Effect == nil {
		b.errs = append(b.errs, fmt.Errorf("action %s: guard and effect are required", a.Name))
	}
	if a.Choices < 1 {
		a.Choices = 1
	}
	b.forProcs(procs, func(p *Process) { p.Actions = append(p.Actions, a) })
}

// MemoSlots gives every Ctx n slots of memo (Ctx.Memo, Ctx.SetMemo).
func (b *Builder) MemoSlots(n int) { b.sys.MemoSlots = max(n, 0) }

// ReportRangeFaults makes assignments outside their variable's domain
// violations of safety rather than errors (System.RangeFaults).
func (b *Builder) ReportRangeFaults() { b.sys.RangeFaults = true }

// FirstEnabledOnly declares that only the first enabled protocol or timeout
// action, in declaration order, of each listed process (every process if
// none) may fire; environment actions stay outside the rule.
func (b *Builder) FirstEnabledOnly(procs ...int) {
	b.forProcs(procs, func(p *Process) { p.FirstEnabledOnly = true })
}

// Message declares a message type.
func (b *Builder) Message(name string, fields ...Var) MsgType {
	for _, f := range fields {
		if err := f.Domain.validate(); err != nil {
			b.errs = append(b.errs, fmt.Errorf("message %s field %s: %w", name, f.Name, err))
		}
	}
	b.sys.Messages = append(b.sys.Messages, MessageType{Name: name, Fields: fields})
	return MsgType(len(b.sys.Messages) - 1)
}

// Channel declares a FIFO channel from p to q; the topology must link them.
func (b *Builder) Channel(c Channel) ChanID {
	if !b.sys.Topology.Linked(c.From, c.To) {
		b.errs = append(b.errs, fmt.Errorf("channel %d→%d: the %s has no such link", c.From, c.To, b.sys.Topology.Kind))
	}
	if c.Capacity < 1 || c.Capacity > 255 {
		b.errs = append(b.errs, fmt.Errorf("channel %d→%d: capacity %d is outside 1..255", c.From, c.To, c.Capacity))
	}
	b.sys.Channels = append(b.sys.Channels, c)
	return ChanID(len(b.sys.Channels) - 1)
}

// LinkChannels declares one channel along every link of the topology, in
// Topology.Links order, all with the same capacity, policy and types.
func (b *Builder) LinkChannels(capacity int, overflow Overflow, types ...MsgType) {
	for _, l := range b.sys.Topology.Links() {
		b.Channel(Channel{From: l[0], To: l[1], Capacity: capacity, Overflow: overflow, Types: types})
	}
}

// Name returns the name of a declared variable.
func (b *Builder) Name(v VarID) string { return b.sys.Vars[v].Name }

// Links lists the topology's directed links, as Topology.Links.
func (b *Builder) Links() [][2]int { return b.sys.Topology.Links() }

// Daemon sets the daemon (central by default).
func (b *Builder) Daemon(d Daemon) { b.sys.Daemon = d }

// Invariant adds a safety invariant.
func (b *Builder) Invariant(p Predicate) { b.sys.Invariants = append(b.sys.Invariants, p) }

// Legitimate sets the legitimacy predicate.
func (b *Builder) Legitimate(p Predicate) { b.sys.Legitimate = &p }

// Enumerator calls yield with configurations of sys, one after another,
// until it has no more or yield returns false. It may reuse the state it
// passes: yield must copy what it keeps.
type Enumerator func(sys *System, yield func(*State) bool)

// EnumeratorSource derives an Enumerator of the legitimate configurations
// of sys, with the same contract as Builder.LegitimateConfigurations'.
// ctx and memory (nil: no limit) bound the derivation: when ctx ends or
// the budget refuses what it needs, the error wraps ctx's error or the
// budget's *budget.Exceeded; any other error says why it cannot derive
// one.
type EnumeratorSource func(ctx context.Context, sys *System, memory *budget.Memory) (Enumerator, error)

// EnumeratesLegitimate reports whether closure can be decided from an
// enumeration of the legitimate configurations: the spec gives one
// (LegitimateConfigurations) or a way to derive one
// (DeriveLegitimateConfigurations).
func (s *System) EnumeratesLegitimate() bool {
	return s.LegitimateConfigurations != nil || s.DeriveLegitimateConfigurations != nil
}

// LegitimateConfigurations declares an enumerator of the legitimate
// configurations: it must yield every configuration in which the
// legitimacy predicate holds (each at least once) and no other. Closure
// needs only these, and a spec whose full space cannot be swept but whose
// legitimacy predicate is structured enough to enumerate gets an
// exhaustive closure verdict from it. The checker verifies that every
// configuration yielded is legitimate; completeness is the spec's to
// test.
func (b *Builder) LegitimateConfigurations(e Enumerator) { b.sys.LegitimateConfigurations = e }

// ValidEnd sets the predicate of valid end states.
func (b *Builder) ValidEnd(p Predicate) { b.sys.ValidEnd = &p }

// PredicateFaults sets the function that returns the first failure of a
// predicate's evaluation (System.PredicateFault).
func (b *Builder) PredicateFaults(f func() error) { b.sys.PredicateFault = f }

// ProcessPredicate declares a named per-process predicate; starvation
// freedom needs one named "requesting" and one named "inCS".
func (b *Builder) ProcessPredicate(p ProcessPredicate) {
	b.sys.ProcessPredicates = append(b.sys.ProcessPredicates, p)
}

// Initial adds an initial configuration: init receives the built system and
// a configuration with every variable at its minimum and every channel
// empty, and sets it up.
func (b *Builder) Initial(init func(sys *System, s *State)) { b.init = append(b.init, init) }

func (b *Builder) forProcs(procs []int, f func(*Process)) {
	if len(procs) == 0 {
		for p := range b.sys.Processes {
			f(&b.sys.Processes[p])
		}
		return
	}
	for _, p := range procs {
		if p < 0 || p >= len(b.sys.Processes) {
			b.errs = append(b.errs, fmt.Errorf("process %d does not exist", p))
			continue
		}
		f(&b.sys.Processes[p])
	}
}

// Build checks the declarations, computes the state layout and returns the
// system.
func (b *Builder) Build() (*System, error) {
	sys := b.sys
	errs := append([]error(nil), b.errs...)
	if len(sys.Channels) > 0 && sys.Daemon != Central {
		errs = append(errs, fmt.Errorf("the %s daemon is defined for the state-reading model only; a system with channels is an asynchronous interleaving (central daemon)", sys.Daemon))
	}
	if a := sys.atomicAction(); a != "" && sys.Daemon != Central {
		errs = append(errs, atomicDaemonError(a, sys.Daemon))
	}
	n := len(sys.Processes)
	seen := make(map[[2]int]bool)
	for _, c := range sys.Channels {
		k := [2]int{c.From, c.To}
		if seen[k] {
			errs = append(errs, fmt.Errorf("two channels from %d to %d", c.From, c.To))
		}
		seen[k] = true
		for _, t := range c.Types {
			if t < 0 || int(t) >= len(sys.Messages) {
				errs = append(errs, fmt.Errorf("channel %d→%d: unknown message type %d", c.From, c.To, t))
			}
		}
	}
	if len(b.init) == 0 {
		errs = append(errs, errors.New("no initial configuration"))
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("system %s: %w", sys.Name, errors.Join(errs...))
	}
	if err := sys.layout.compute(&sys); err != nil {
		return nil, fmt.Errorf("system %s: %w", sys.Name, err)
	}
	_ = n
	if sys.Symmetry != nil {
		g, err := sys.layout.compileGroup(&sys)
		if err != nil {
			return nil, fmt.Errorf("system %s: %w", sys.Name, err)
		}
		sys.group = g
	}
	for i, f := range b.init {
		st := sys.NewState()
		f(&sys, st)
		if err := sys.Validate(st); err != nil {
			return nil, fmt.Errorf("system %s: initial configuration %d: %w", sys.Name, i, err)
		}
		sys.initial = append(sys.initial, st)
	}
	return &sys, nil
}

// Validate reports the first way st is not a configuration of the system: a
// variable outside its domain, a channel over capacity, a message the channel
// cannot carry.
func (s *System) Validate(st *State) error {
	if len(st.Vars) != s.layout.nvars || len(st.Lens) != len(s.Channels) || len(st.Msgs) != s.layout.nmsgs {
		return errors.New("state does not have the system's shape")
	}
	for p := range s.Processes {
		for _, v := range s.Processes[p].Vars {
			val := int(st.Vars[s.layout.varIdx[p*len(s.Vars)+int(v)]])
			if d := s.Vars[v].Domain; !d.Contains(val) {
				return fmt.Errorf("process %d variable %s = %d is outside %s", p, s.Vars[v].Name, val, d)
			}
		}
	}
	for c, ch := range s.Channels {
		if l := int(st.Lens[c]); l < 0 || l > ch.Capacity {
			return fmt.Errorf("channel %d→%d holds %d messages, capacity %d", ch.From, ch.To, l, ch.Capacity)
		}
		for i := 0; i < int(st.Lens[c]); i++ {
			m := st.Msgs[int(s.layout.chanOff[c])+i]
			if int(m) >= len(s.layout.letterType) || s.layout.chanLocal[c][m] < 0 {
				return fmt.Errorf("channel %d→%d: message %d cannot travel on it", ch.From, ch.To, m)
			}
		}
	}
	return nil
}

func bitsFor(size uint64) int {
	if size <= 1 {
		return 0
	}
	return bits.Len64(size - 1)
}

// WithDaemon returns a copy of s scheduled by d. It reports the combination
// Build rejects: a daemon other than central on a system with channels,
// whose steps are an asynchronous interleaving.
func (s *System) WithDaemon(d Daemon) (*System, error) {
	if d < Central || d > Synchronous {
		return nil, fmt.Errorf("system %s: unknown daemon %d", s.Name, int(d))
	}
	if len(s.Channels) > 0 && d != Central {
		return nil, fmt.Errorf("system %s: the %s daemon is defined for the state-reading model only; a system with channels is an asynchronous interleaving (central daemon)", s.Name, d)
	}
	if a := s.atomicAction(); a != "" && d != Central {
		return nil, fmt.Errorf("system %s: %w", s.Name, atomicDaemonError(a, d))
	}
	c := *s
	c.Daemon = d
	return &c, nil
}

// WithOverflow returns a copy of s in which every channel's overflow policy
// is o.
func (s *System) WithOverflow(o Overflow) (*System, error) {
	if o < Block || o > Error {
		return nil, fmt.Errorf("system %s: unknown overflow policy %d", s.Name, int(o))
	}
	c := *s
	c.Channels = make([]Channel, len(s.Channels))
	for i, ch := range s.Channels {
		ch.Overflow = o
		c.Channels[i] = ch
	}
	return &c, nil
}
