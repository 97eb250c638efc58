package compile

import (
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// access computes the access sets of sys's actions from the IR, for
// partial-order reduction: for each action of each process, the slots
// its guard and effect may read and write, the channels it sends on and
// receives from, and its guard's top-level conjuncts. A process index
// the IR computes at run time (a quantified process, a choice) stands
// for every process; an array entry indexed at run time for every entry.
// actions are the IR actions the model has, in the order the compiler
// added them.
func (c *compiler) access(sys *model.System, actions []*ir.Action) *model.Access {
	acc := &model.Access{Actions: make([][]model.ActionAccess, c.n)}
	for _, a := range actions {
		for _, p := range a.Procs {
			acc.Actions[p] = append(acc.Actions[p], c.actionAccess(sys, a, p))
		}
	}
	// A process that runs only its first enabled protocol or timeout
	// action: each such action's enabledness reads the guards of those
	// before it.
	for _, p := range c.spec.FirstEnabled {
		var before []model.Slot
		for i := range acc.Actions[p] {
			x := &acc.Actions[p][i]
			if sys.Processes[p].Actions[i].Kind == model.Environment {
				continue
			}
			guard := slices.Clone(before)
			for _, cj := range x.Conjuncts {
				before = append(before, cj.Reads...)
			}
			for _, ch := range x.Receives {
				before = append(before, sys.ChanSlot(ch))
			}
			if x.Any {
				// Its guard may read anything: so may those after it.
				before = allSlots(sys)
			}
			if len(guard) > 0 {
				x.Reads = merge(x.Reads, guard)
				x.Conjuncts = append(x.Conjuncts, model.Conjunct{Reads: sortSlots(guard)})
			}
		}
	}
	w := &accessWalker{c: c, sys: sys, p: -1}
	for _, inv := range c.spec.Invariants {
		w.expr(inv.Body)
	}
	if w.any {
		acc.Visible = allSlots(sys)
	} else {
		acc.Visible = sortSlots(w.reads)
	}
	return acc
}

func allSlots(sys *model.System) []model.Slot {
	out := make([]model.Slot, sys.Slots())
	for i := range out {
		out[i] = model.Slot(i)
	}
	return out
}

func sortSlots(xs []model.Slot) []model.Slot {
	xs = slices.Clone(xs)
	slices.Sort(xs)
	return slices.Compact(xs)
}

func merge(a, b []model.Slot) []model.Slot { return sortSlots(append(slices.Clone(a), b...)) }

// actionAccess is what action a of process p may read and write.
func (c *compiler) actionAccess(sys *model.System, a *ir.Action, p int) model.ActionAccess {
	var x model.ActionAccess
	w := &accessWalker{c: c, sys: sys, p: p}
	// in is the one channel the action receives from (-1: none, or one
	// of several), whose head its guard's fields read.
	in := model.ChanID(-1)
	if r := a.Recv; r != nil {
		froms := w.procs(r.From)
		var slots []model.Slot
		for _, q := range froms {
			if ch := sys.ChanBetween(q, p); ch >= 0 {
				slots = append(slots, sys.ChanSlot(ch))
				if r.Run != nil {
					// A run is read past the head: its channel is read
					// and written as a whole.
					w.reads = append(w.reads, sys.ChanSlot(ch))
					w.writes = append(w.writes, sys.ChanSlot(ch))
				} else {
					x.Receives = append(x.Receives, ch)
				}
			}
		}
		head := model.Conjunct{Reads: sortSlots(slots)}
		if len(froms) == 1 && len(slots) == 1 && !readsLocalsOrFields(r.From, nil) {
			head.Head = true
			in = sys.ChanBetween(froms[0], p)
			ch := in
			head.Holds = func(ctx *model.Ctx) (holds, known bool) {
				m, ok := ctx.Head(ch)
				if !ok {
					return false, true
				}
				t := ctx.TypeOf(m)
				for i, msg := range c.spec.Messages {
					if c.types[i] == t {
						return r.Accepts(msg), true
					}
				}
				return false, false
			}
		}
		x.Conjuncts = append(x.Conjuncts, head)
	}
	for _, cj := range guardConjuncts(a.Guard) {
		cw := &accessWalker{c: c, sys: sys, p: p}
		cw.expr(cj)
		w.expr(cj)
		if cw.any {
			x.Any = true
			continue
		}
		conj := model.Conjunct{Reads: sortSlots(cw.reads)}
		fields := readsFields(cj)
		if fields && in >= 0 && !a.Recv.Any {
			conj.Received = []model.ChanID{in}
		}
		if !readsLocalsOrFields(cj, a.Choice) && (!fields || conj.Received != nil) {
			conj.Holds = c.conjunctHolds(cj, a, in, fields)
		}
		x.Conjuncts = append(x.Conjuncts, conj)
	}
	w.stmts(a.Effects)
	if w.any {
		x.Any = true
	}
	x.Reads, x.Writes = sortSlots(w.reads), sortSlots(w.writes)
	slices.Sort(x.Sends)
	x.Sends = append(x.Sends, w.sends...)
	slices.Sort(x.Sends)
	x.Sends = slices.Compact(x.Sends)
	slices.Sort(x.Receives)
	x.Receives = slices.Compact(x.Receives)
	return x
}

// guardConjuncts splits a guard into its top-level conjuncts (none for
// a guard that is true).
func guardConjuncts(e ir.Expr) []ir.Expr {
	var out []ir.Expr
	for _, x := range conjuncts(e) {
		if k, ok := x.(*ir.Const); !ok || k.Value == 0 {
			out = append(out, x)
		}
	}
	return out
}

// readsLocalsOrFields reports whether e reads what a configuration alone
// does not give: a local bound outside it other than choice, a received
// field, a sequential block's value.
func readsLocalsOrFields(e ir.Expr, choice *ir.Local) bool {
	bound := map[*ir.Local]bool{}
	if choice != nil {
		bound[choice] = true
	}
	found := false
	ir.Inspect(e, func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.Quant:
			bound[x.Var] = true
		case *ir.MsgQuant:
			bound[x.Var] = true
		case *ir.LocalRef:
			found = found || !bound[x.Local]
		case *ir.TempRef, *ir.RunField, *ir.RunIs:
			found = true
		}
		return !found
	})
	return found
}

// readsFields reports whether e reads a field of the received message.
func readsFields(e ir.Expr) bool {
	found := false
	ir.Inspect(e, func(x ir.Expr) bool {
		if _, ok := x.(*ir.FieldRef); ok {
			found = true
		}
		return !found
	})
	return found
}

// conjunctHolds compiles a test of the guard conjunct e of action a:
// it holds for some alternative, with the message at the head of
// channel in as the received one when it reads fields (unknown when the
// head is not one the action receives).
func (c *compiler) conjunctHolds(e ir.Expr, a *ir.Action, in model.ChanID, fields bool) func(*model.Ctx) (bool, bool) {
	cx := &actionCtx{compiler: c, action: a, guard: true}
	fn := cx.expr(e, nil)
	lo, hi := 0, 0
	if a.Choice != nil {
		lo, hi = a.Choice.Lo, a.Choice.Hi
	}
	var want model.MsgType
	if fields {
		want = c.types[a.Recv.Msg.ID]
	}
	return func(ctx *model.Ctx) (holds, known bool) {
		var m model.Msg
		if fields {
			var ok bool
			if m, ok = ctx.Head(in); !ok || ctx.TypeOf(m) != want {
				return false, false
			}
		}
		for v := lo; v <= hi; v++ {
			if fn(ctx, frame(v, m)) != 0 {
				return true, true
			}
		}
		return false, true
	}
}

// accessWalker gathers the slots expressions and effects of process p
// (-1: of no process, as an invariant's) may read and write.
type accessWalker struct {
	c             *compiler
	sys           *model.System
	p             int
	reads, writes []model.Slot
	sends         []model.ChanID
	// any: something was met whose accesses are unknown.
	any bool
}

// procs are the processes e may name for p: every process when it is
// computed at run time.
func (w *accessWalker) procs(e ir.Expr) []int {
	n := w.c.n
	switch e := e.(type) {
	case nil:
		if w.p >= 0 {
			return []int{w.p}
		}
	case *ir.Self:
		if w.p >= 0 {
			return []int{w.p}
		}
	case *ir.Const:
		return []int{ir.Mod(e.Value, n)}
	case *ir.Neighbor:
		var out []int
		for _, q := range w.procs(e.Of) {
			out = append(out, ir.Mod(q+e.Offset, n))
		}
		return out
	}
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}

// vars adds the slots of variable v of the processes ps that have it.
func (w *accessWalker) vars(dst *[]model.Slot, v *ir.Var, ps []int) {
	for _, q := range ps {
		if i := w.sys.VarIndex(q, w.c.vars[v.ID]); i >= 0 {
			*dst = append(*dst, model.Slot(i))
		}
	}
}

// array adds the slots of every entry of array a of the processes ps.
func (w *accessWalker) array(dst *[]model.Slot, a *ir.Array, ps []int) {
	for _, v := range a.Elems {
		if v != nil {
			w.vars(dst, v, ps)
		}
	}
}

// chans adds the slots of the channels from froms to tos.
func (w *accessWalker) chans(from, to ir.Expr) {
	for _, q := range w.procs(from) {
		for _, r := range w.procs(to) {
			if ch := w.sys.ChanBetween(q, r); ch >= 0 {
				w.reads = append(w.reads, w.sys.ChanSlot(ch))
			}
		}
	}
}

// expr adds what e may read.
func (w *accessWalker) expr(e ir.Expr) {
	ir.Inspect(e, func(x ir.Expr) bool {
		switch x := x.(type) {
		case *ir.VarRef:
			w.vars(&w.reads, x.Var, w.procs(x.Proc))
		case *ir.ElemRef:
			w.array(&w.reads, x.Array, w.procs(x.Proc))
		case *ir.TempRef:
			w.temp(&w.reads, x.Temp)
		case *ir.ChanLen:
			w.chans(x.From, x.To)
		case *ir.ChanPos:
			w.chans(x.From, x.To)
		case *ir.HeadField:
			w.chans(x.From, x.To)
		case *ir.MsgQuant:
			w.chans(x.From, x.To)
		case *ir.Const, *ir.Self, *ir.Neighbor, *ir.LocalRef, *ir.FieldRef, *ir.Unary, *ir.Binary,
			*ir.Cond, *ir.Quant, *ir.MsgField, *ir.FieldElem, *ir.RunField, *ir.RunIs:
		default:
			w.any = true
		}
		return true
	})
}

// temp adds the variables a sequential block's value t shadows.
func (w *accessWalker) temp(dst *[]model.Slot, t *ir.Temp) {
	switch {
	case t.Var != nil:
		w.vars(dst, t.Var, w.procs(nil))
	case t.Array != nil:
		w.array(dst, t.Array, w.procs(nil))
	}
}

// stmts adds what ss may read and write.
func (w *accessWalker) stmts(ss []ir.Stmt) {
	for _, s := range ss {
		switch s := s.(type) {
		case *ir.Assign:
			w.expr(s.Value)
			w.vars(&w.writes, s.Var, w.procs(nil))
		case *ir.AssignElem:
			w.expr(s.Index)
			w.expr(s.Value)
			w.array(&w.writes, s.Array, w.procs(nil))
		case *ir.AssignAt:
			w.expr(s.Proc)
			w.expr(s.Value)
			w.vars(&w.writes, s.Var, w.procs(s.Proc))
		case *ir.Send:
			for _, a := range s.Args {
				w.expr(a)
			}
			w.expr(s.To)
			for _, q := range w.procs(s.To) {
				if ch := w.sys.ChanBetween(w.p, q); ch >= 0 {
					w.sends = append(w.sends, ch)
				}
			}
		case *ir.If:
			w.expr(s.Cond)
			w.stmts(s.Then)
			w.stmts(s.Else)
		case *ir.Repeat:
			w.expr(s.Count)
			w.stmts(s.Body)
		case *ir.For:
			if s.Over != nil {
				w.expr(s.Over.Of)
			}
			w.stmts(s.Body)
		case *ir.Seq:
			w.stmts(s.Body)
		case *ir.SetTemp:
			w.expr(s.Index)
			w.expr(s.Value)
			w.temp(&w.reads, s.Temp)
			w.temp(&w.writes, s.Temp)
		case *ir.ForRun:
			w.stmts(s.Body)
		default:
			w.any = true
		}
	}
}
