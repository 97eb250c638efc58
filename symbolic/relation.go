package symbolic

import (
	"fmt"

	"github.com/ringcheck/ringcheck/internal/rudd"
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// class is a set of actions a fairness constraint is about: a process's
// scheduled, finite or timeout actions (as the explicit engine's classes).
type class int

const (
	scheduled class = iota
	finite
	timer
	classes
)

// obligation is a set of a process's steps that a fairness constraint is
// about: its actions of one class, or one action of that class.
type obligation struct {
	class class
	// protocol: the actions are scheduled or finite (not timeouts alone),
	// which strong fairness makes strongly fair.
	protocol bool
	// moves are the steps, enabled the configurations where one of them
	// is enabled.
	moves, enabled rudd.Node
}

// local is one process's share of the transition relation. Its relations
// range over the current configuration and the next values of the
// process's own bits only (its variables and the channels it sends or
// receives on): a step of p leaves every other bit as it is, so the
// relation needs no frame for them.
type local struct {
	// rel is every step of the process, enabled the configurations where
	// it has one.
	rel     rudd.Node
	enabled rudd.Node
	// obligations are the sets of its steps fairness may oblige: per
	// process, its actions of each class; per action (weak-action
	// fairness), each action that has a class.
	obligations []obligation
	// curSet and nextSet are the process's current and next bits;
	// toNext renames the first into the second, toCurrent back.
	curSet, nextSet   rudd.Node
	toNext, toCurrent rudd.Replacer
	// same is the steps that leave the process's bits unchanged.
	same rudd.Node
}

// ownFields is every field of process p's share: its variables, the
// variables of its peers its atomic actions may assign (peerWrites), and
// the channels it sends or receives on.
func (e *Encoding) ownFields(p int) []*field {
	var out []*field
	for _, f := range e.fields[p] {
		if f != nil {
			out = append(out, f)
		}
	}
	for _, w := range e.peerWrites(p) {
		out = append(out, e.fields[w.proc][w.v.ID])
	}
	for _, ch := range e.incident[p] {
		out = append(out, ch.fields()...)
	}
	return out
}

// locals builds every process's share of the relation: for each of its
// actions and each value of the action's choice parameter, the guard (the
// message at the head of the channel, for a receive) and the next values
// of what the effect writes; the process's other bits keep their values.
func (e *Encoding) locals() error {
	b := e.b
	first := map[int]bool{}
	for _, p := range e.spec.FirstEnabled {
		first[p] = true
	}
	e.procs = make([]*local, e.spec.N)
	done, total := 0, e.actions()
	for p := range e.spec.N {
		l := &local{rel: b.False(), same: b.True()}
		var of [classes]rudd.Node
		for c := range of {
			of[c] = b.False()
		}
		var cur, next []int
		for _, f := range e.ownFields(p) {
			l.same = b.And(l.same, e.unchanged(f))
			for _, v := range f.bits {
				cur, next = append(cur, v), append(next, v+1)
			}
		}
		l.curSet, l.nextSet = b.Makeset(cur), b.Makeset(next)
		var err error
		if l.toNext, err = b.NewReplacer(cur, next); err != nil {
			return err
		}
		if l.toCurrent, err = b.NewReplacer(next, cur); err != nil {
			return err
		}
		// earlier is the disjunction of the guards of p's protocol and
		// timeout actions so far, for a process that runs only its first
		// enabled one.
		earlier := b.False()
		for _, a := range e.spec.Actions {
			if !declaresAction(a, p) {
				continue
			}
			e.report(Progress{Phase: fmt.Sprintf("encoding the transition relation, process %d of %d, action %s", p+1, e.spec.N, a.Name), Done: done, Total: total})
			done++
			alternatives := []int{0}
			if a.Choice != nil {
				alternatives = alternatives[:0]
				for k := a.Choice.Lo; k <= a.Choice.Hi; k++ {
					alternatives = append(alternatives, k)
				}
			}
			guardAll, actMoves := b.False(), b.False()
			for _, k := range alternatives {
				in := env{self: p}
				if a.Choice != nil {
					in = in.with(a.Choice, k)
				}
				head := e.valid
				if a.Recv != nil {
					from, err := e.process(a.Recv.From, in)
					if err != nil {
						return fmt.Errorf("action %s of process %d: the channel it receives on: %w", a.Name, p, err)
					}
					ch, err := e.channelOf(from, p)
					if err != nil {
						return fmt.Errorf("action %s of process %d: %w", a.Name, p, err)
					}
					in.recv = &receiving{ch: ch, msg: a.Recv.Msg}
					if a.Recv.Any {
						head = b.And(head, e.anyHead(ch, a.Recv))
					} else {
						head = b.And(head, e.holds(ch, 0, a.Recv.Msg))
					}
				}
				guard, err := e.boolean(a.Guard, in)
				if err != nil {
					return fmt.Errorf("action %s of process %d: the guard: %w", a.Name, p, err)
				}
				guard = b.And(guard, head)
				if first[p] && a.Kind != model.Environment {
					guard = b.And(guard, b.Not(earlier))
				}
				step, blocked, overflows, err := e.step(a, p, in, guard)
				if err != nil {
					return fmt.Errorf("action %s of process %d: %w", a.Name, p, err)
				}
				e.faulty = b.Or(e.faulty, b.And(guard, overflows))
				// A step a full channel blocks does not happen, though the
				// action is enabled (first-enabled processes count it).
				moves := b.And(b.And(guard, b.Not(blocked)), step)
				l.rel = b.Or(l.rel, moves)
				actMoves = b.Or(actMoves, moves)
				for _, c := range classesOf(a) {
					of[c] = b.Or(of[c], moves)
				}
				guardAll = b.Or(guardAll, guard)
			}
			if first[p] && a.Kind != model.Environment {
				earlier = b.Or(earlier, guardAll)
			}
			if cs := classesOf(a); e.opts.perAction() && len(cs) > 0 {
				// A timeout is obliged as a timer, whatever its role (and
				// strongly under strong fairness if it is also scheduled or
				// finite).
				l.obligations = append(l.obligations, obligation{class: cs[len(cs)-1], protocol: cs[0] != timer, moves: actMoves})
			}
		}
		l.enabled = b.Exist(l.rel, l.nextSet)
		if !e.opts.perAction() {
			for c := range of {
				l.obligations = append(l.obligations, obligation{class: class(c), protocol: class(c) != timer, moves: of[c]})
			}
		}
		for i := range l.obligations {
			l.obligations[i].enabled = b.Exist(l.obligations[i].moves, l.nextSet)
		}
		e.procs[p] = l
	}
	return nil
}

// actions counts the actions of every process.
func (e *Encoding) actions() int {
	n := 0
	for p := range e.spec.N {
		for _, a := range e.spec.Actions {
			if declaresAction(a, p) {
				n++
			}
		}
	}
	return n
}

// classesOf lists the classes of action a.
func classesOf(a *ir.Action) []class {
	var out []class
	switch a.Liveness {
	case model.Scheduled:
		out = append(out, scheduled)
	case model.Finite:
		out = append(out, finite)
	}
	if a.Kind == model.Timeout {
		out = append(out, timer)
	}
	return out
}

// concurrent builds the relation of the distributed daemon (any
// non-empty set of enabled processes moves, each by one of its steps,
// all reading the configuration before the step) or of the synchronous
// one (every enabled process moves), over every bit.
func (e *Encoding) concurrent(daemon model.Daemon) rudd.Node {
	b := e.b
	t, some := b.True(), b.False()
	for _, l := range e.procs {
		if daemon == model.Synchronous {
			t = b.And(t, b.Or(l.rel, b.And(b.Not(l.enabled), l.same)))
		} else {
			t = b.And(t, b.Or(l.rel, l.same))
		}
		some = b.Or(some, l.rel)
	}
	return b.And(t, some)
}

// declaresAction reports whether process p has action a.
func declaresAction(a *ir.Action, p int) bool {
	for _, q := range a.Procs {
		if q == p {
			return true
		}
	}
	return false
}

// effectState is what an action's effects have done so far: the next
// values of the variables they assign, the messages they send, and the
// configurations where a send to a full channel blocks the step (policy
// block) or overflows it (policy error: the step happens, the message is
// lost, and the step is faulty).
type effectState struct {
	written            map[int]cases
	chans              map[*channel]*chanWrite
	blocked, overflows rudd.Node
	// others holds the next values of the peers' variables an atomic
	// action assigns, by process and variable; at, where each variable
	// (by process and variable) is assigned so far, to refuse a second
	// assignment in one step.
	others map[int]map[int]cases
	at     map[[2]int]rudd.Node
}

// step is the relation between a configuration where guard holds and the
// next values of process p's bits that action a's effects make (after
// the receive, if the action receives): each variable p writes (its own,
// and its peers' in p's share, for an atomic action) takes its new
// value, read in the configuration before the step, each channel
// receives what p sends, and everything else of p's share keeps its
// value.
// blocked is where a send to a full channel blocks the step, overflows
// where one overflows a channel whose policy is error.
func (e *Encoding) step(a *ir.Action, p int, in env, guard rudd.Node) (rel, blocked, overflows rudd.Node, err error) {
	b := e.b
	st := &effectState{written: map[int]cases{}, chans: map[*channel]*chanWrite{}, blocked: b.False(), overflows: b.False(), others: map[int]map[int]cases{}, at: map[[2]int]rudd.Node{}}
	if err := e.effects(a.Effects, p, in, guard, st); err != nil {
		return nil, nil, nil, err
	}
	peers, err := e.peersAssigned(p, guard, st)
	if err != nil {
		return nil, nil, nil, err
	}
	rel = peers
	for id, f := range e.fields[p] {
		if f == nil {
			continue
		}
		next, ok := st.written[id]
		if !ok {
			rel = b.And(rel, e.unchanged(f))
			continue
		}
		// The new value, by cases; a value outside the domain is a range
		// fault the explicit engine reports, not a step here.
		v, bad, ok := e.newValue(f, next, guard)
		if !ok {
			return nil, nil, nil, fmt.Errorf("it may set %s to %d, outside %d..%d (a range fault, for the explicit engine): %w", e.spec.Vars[id].Name, bad, f.lo, f.hi, ErrUnsupported)
		}
		rel = b.And(rel, v)
	}
	for _, ch := range e.incident[p] {
		w := st.chans[ch]
		switch {
		case in.recv != nil && in.recv.ch == ch:
			if w != nil {
				return nil, nil, nil, fmt.Errorf("it receives from and sends to the channel %d→%d: %w", ch.from, ch.to, ErrUnsupported)
			}
			rel = b.And(rel, e.shifted(ch))
		case w != nil:
			rel = b.And(rel, e.written(ch, w))
		default:
			for _, f := range ch.fields() {
				rel = b.And(rel, e.unchanged(f))
			}
		}
	}
	return rel, st.blocked, st.overflows, nil
}

// effects records in st what stmts do where cond holds (the branches
// taken so far): for each variable of p they assign, its next value by
// cases (a variable a branch leaves alone keeps its value there), and
// the messages they send.
func (e *Encoding) effects(stmts []ir.Stmt, p int, in env, cond rudd.Node, st *effectState) error {
	b := e.b
	for _, s := range stmts {
		switch s := s.(type) {
		case *ir.Assign:
			val, err := e.eval(s.Value, in)
			if err != nil {
				return err
			}
			if err := e.once(st, p, p, s.Var, cond); err != nil {
				return err
			}
			e.assign(s.Var, p, val, cond, st.written)
		case *ir.AssignAt:
			if err := e.assignAt(s, p, in, cond, st); err != nil {
				return err
			}
		case *ir.AssignElem:
			idx, err := e.eval(s.Index, in)
			if err != nil {
				return err
			}
			val, err := e.eval(s.Value, in)
			if err != nil {
				return err
			}
			for i, m := range idx {
				v := s.Array.Elem(i)
				if v == nil && e.impossible(m) {
					continue
				}
				if v == nil || e.fields[p][v.ID] == nil {
					return fmt.Errorf("it may set an entry of %s that process %d lacks (%s): %w", s.Array.Name, p, s.Array.EntryName(i), ErrUnsupported)
				}
				if err := e.once(st, p, p, v, b.And(cond, m)); err != nil {
					return err
				}
				e.assign(v, p, val, b.And(cond, m), st.written)
			}
		case *ir.If:
			c, err := e.boolean(s.Cond, in)
			if err != nil {
				return err
			}
			if err := e.effects(s.Then, p, in, b.And(cond, c), st); err != nil {
				return err
			}
			if err := e.effects(s.Else, p, in, b.And(cond, b.Not(c)), st); err != nil {
				return err
			}
		case *ir.For:
			of := 0
			if s.Over.Of != nil {
				var err error
				if of, err = e.process(s.Over.Of, in); err != nil {
					return err
				}
			}
			for _, q := range s.Over.Members(of) {
				if err := e.effects(s.Body, p, in.with(s.Var, q), cond, st); err != nil {
					return err
				}
			}
		case *ir.Repeat:
			count, err := e.eval(s.Count, in)
			if err != nil {
				return err
			}
			most := 0
			for v := range count {
				most = max(most, v)
			}
			for i := range most {
				if err := e.effects(s.Body, p, in, b.And(cond, e.above(count, i)), st); err != nil {
					return err
				}
			}
		case *ir.Send:
			if e.carry == nil {
				return fmt.Errorf("a send in a spec without channels: %w", ErrUnsupported)
			}
			to, err := e.process(s.To, in)
			if err != nil {
				return err
			}
			ch, err := e.channelOf(p, to)
			if err != nil {
				return err
			}
			args := make([]cases, len(s.Args))
			for k, x := range s.Args {
				if args[k], err = e.eval(x, in); err != nil {
					return err
				}
			}
			if err := e.send(st, ch, s.Msg, args, cond); err != nil {
				return err
			}
		default:
			return fmt.Errorf("an effect of type %T: %w", s, ErrUnsupported)
		}
	}
	return nil
}

// assign makes v's next value val where cond holds, over what earlier
// statements gave it (its current value if none did).
func (e *Encoding) assign(v *ir.Var, p int, val cases, cond rudd.Node, written map[int]cases) {
	b := e.b
	old, ok := written[v.ID]
	if !ok {
		var err error
		if old, err = e.eval(&ir.VarRef{Var: v, Proc: &ir.Const{Value: p}}, env{self: p}); err != nil {
			old = e.constant(0)
		}
	}
	out := cases{}
	for x, m := range old {
		e.add(out, x, b.And(m, b.Not(cond)))
	}
	for x, m := range val {
		e.add(out, x, b.And(m, cond))
	}
	written[v.ID] = out
}
