package ir

import (
	"fmt"
	"slices"

	"github.com/ringcheck/ringcheck/lang/syntax"
)

// This file holds sequential blocks (do { ... }): effects that run in
// order, each reading what the ones before it wrote. A block holds its
// values in a frame of slots while it runs: its locals (let), and a
// shadow of each variable or array it assigns, which every read of that
// variable by the acting process in the block reads instead. The shadows
// start at the variables' values before the step; at the block's end,
// the entries the block assigned are written to the configuration after
// the step.

// Seq runs Body in order. Temps are its locals and shadows, each at its
// slots of a frame of Frame slots. Inside Body, an assignment of a
// variable or of an array's entry is a SetTemp of its shadow, and a read
// of one of the acting process's is a TempRef.
type Seq struct {
	Body  []Stmt
	Temps []*Temp
	Frame int
	Pos   syntax.Pos
}

// Temp is a value a sequential block holds while it runs: a local (Var
// and Array nil), or the shadow of variable Var or of array Array of the
// acting process, one slot per entry (Len of them, from Slot), and as
// many flags, from Dirty, set where the block assigned the entry.
// A local array (let t[LO..HI]: ...) has Rows set: its entry i is at
// slot offset i-Rows.Lo; a two-dimensional one (Cols set too) is read and
// assigned at the index (r-Rows.Lo)*Cols.Len()+(c-Cols.Lo) of its entry
// [r][c], which is its offset (-1, no entry, for indices outside the
// ranges).
type Temp struct {
	Name       string
	Type       *Type
	Slot       int
	Len        int
	Dirty      int
	Var        *Var
	Array      *Array
	Rows, Cols *Range
	Pos        syntax.Pos
}

// Shadow reports whether t is the shadow of a variable or an array.
func (t *Temp) Shadow() bool { return t.Var != nil || t.Array != nil }

// LocalArray reports whether t is a local array.
func (t *Temp) LocalArray() bool { return t.Rows != nil }

// Offset returns the slot offset of index i of the local array t, and
// whether t has an entry there.
func (t *Temp) Offset(i int) (int, bool) {
	if t.Cols == nil {
		i -= t.Rows.Lo
	}
	return i, i >= 0 && i < t.Len
}

// EntryName returns the entry at slot offset off of the local array t
// as written in a file: "[3]", or "[1][2]" for a two-dimensional one.
func (t *Temp) EntryName(off int) string {
	if t.Cols == nil {
		return fmt.Sprintf("[%d]", t.Rows.Lo+off)
	}
	return fmt.Sprintf("[%d][%d]", t.Rows.Lo+off/t.Cols.Len(), t.Cols.Lo+off%t.Cols.Len())
}

// MissingLocal describes the lack of entry i of the local array t, for
// an error: "local t has no entry 5 (its entries are 0..3)", or, for a
// two-dimensional one, "local t has no entry outside [0..1][0..2]".
func (t *Temp) MissingLocal(i int) string {
	if t.Cols == nil {
		return fmt.Sprintf("local %s has no entry %d (its entries are %s)", t.Name, i, t.Rows)
	}
	return fmt.Sprintf("local %s has no entry outside [%s][%s]", t.Name, t.Rows, t.Cols)
}

// Entry returns the slot offset of index i of t (0 for a local or a
// variable's shadow; i less the array's first index for an array's) and
// the variable it shadows there, or nil when the acting process p has no
// such entry.
func (t *Temp) Entry(i, p int) (int, *Var) {
	switch {
	case t.Array != nil:
		v := t.Array.Elem(i)
		if v == nil || !slices.Contains(v.Procs, p) {
			return 0, nil
		}
		return i - t.Array.Lo, v
	case t.Var != nil:
		return 0, t.Var
	}
	return 0, nil
}

// Missing describes process p's lack of entry i of the array t shadows.
func (t *Temp) Missing(p, i int) string {
	if t.Array == nil {
		return fmt.Sprintf("process %d has no entry %d of %s", p, i, t.Name)
	}
	return t.Array.Missing(p, i)
}

// TempRef reads a local, the acting process's entry Index (nil for a
// local or a variable) of the array whose shadow Temp is, or entry Index
// of a local array (see Temp). Pos is the index's position in the file,
// for an entry found missing.
type TempRef struct {
	Temp  *Temp
	Index Expr
	Pos   syntax.Pos
}

// Type is the local's or the shadowed variable's type.
func (e *TempRef) Type() *Type { return e.Temp.Type }

// SetTemp assigns Value to a local, or to the entry Index (nil for a
// local or a variable) of a shadow or of a local array; with Index nil,
// a local array's every entry is set to Value (its let). Pos is the
// index's position in the file (the statement's for a local or a
// variable), for an entry found missing.
type SetTemp struct {
	Temp         *Temp
	Index, Value Expr
	Pos          syntax.Pos
}

func (*Seq) stmt()     {}
func (*SetTemp) stmt() {}

// TempReader is what Eval reads a sequential block's values from: an
// Env that evaluates the effects of one (entry i of t: its slot
// offset, see Temp.Entry).
type TempReader interface {
	Temp(t *Temp, i int) int
}

// evalTemp evaluates a TempRef.
func evalTemp(e *TempRef, env Env) int {
	r, ok := env.(TempReader)
	if !ok {
		panic(evalFault(fmt.Sprintf("%s is read outside its block", e.Temp.Name)))
	}
	if e.Index == nil {
		return r.Temp(e.Temp, 0)
	}
	i := eval(e.Index, env)
	if e.Temp.LocalArray() {
		off, ok := e.Temp.Offset(i)
		if !ok {
			panic(evalFault(e.Temp.MissingLocal(i)))
		}
		return r.Temp(e.Temp, off)
	}
	off, v := e.Temp.Entry(i, env.Self())
	if v == nil {
		panic(evalFault(e.Temp.Missing(env.Self(), i)))
	}
	return r.Temp(e.Temp, off)
}

// Rewrite returns e with every node for which f returns a replacement
// (ok true) replaced by it, f being called on a node before its
// operands (which a replaced node's are not). The nodes on the way to a
// replaced one are copied, the others shared: e itself is unchanged.
func Rewrite(e Expr, f func(Expr) (Expr, bool)) Expr {
	r := &rewriter{f: f, quants: map[*MsgQuant]*MsgQuant{}}
	return r.expr(e)
}

type rewriter struct {
	f func(Expr) (Expr, bool)
	// quants maps a quantifier over a channel's messages to its copy,
	// for the fields of its messages its body reads.
	quants map[*MsgQuant]*MsgQuant
}

func (r *rewriter) expr(e Expr) Expr {
	if e == nil {
		return nil
	}
	if x, ok := r.f(e); ok {
		return x
	}
	switch e := e.(type) {
	case *Neighbor:
		if of := r.expr(e.Of); of != e.Of {
			return &Neighbor{Of: of, Offset: e.Offset}
		}
	case *VarRef:
		if p := r.expr(e.Proc); p != e.Proc {
			return &VarRef{Var: e.Var, Proc: p}
		}
	case *ElemRef:
		p, i := r.expr(e.Proc), r.expr(e.Index)
		if p != e.Proc || i != e.Index {
			return &ElemRef{Array: e.Array, Proc: p, Index: i, Pos: e.Pos}
		}
	case *TempRef:
		if i := r.expr(e.Index); i != e.Index {
			return &TempRef{Temp: e.Temp, Index: i, Pos: e.Pos}
		}
	case *Unary:
		if x := r.expr(e.X); x != e.X {
			return &Unary{Op: e.Op, X: x, Pos: e.Pos}
		}
	case *Binary:
		x, y := r.expr(e.X), r.expr(e.Y)
		if x != e.X || y != e.Y {
			return &Binary{Op: e.Op, X: x, Y: y, T: e.T, Pos: e.Pos}
		}
	case *Cond:
		c, x, y := r.expr(e.C), r.expr(e.X), r.expr(e.Y)
		if c != e.C || x != e.X || y != e.Y {
			return &Cond{C: c, X: x, Y: y}
		}
	case *Quant:
		over := e.Over
		if over != nil {
			if of := r.expr(over.Of); of != over.Of {
				o := *over
				o.Of = of
				over = &o
			}
		}
		if body := r.expr(e.Body); body != e.Body || over != e.Over {
			return &Quant{Kind: e.Kind, Var: e.Var, Over: over, Body: body, Pos: e.Pos}
		}
	case *ChanLen:
		from, to, upto := r.expr(e.From), r.expr(e.To), r.expr(e.Upto)
		if from != e.From || to != e.To || upto != e.Upto {
			return &ChanLen{From: from, To: to, Msg: e.Msg, Upto: upto}
		}
	case *ChanPos:
		from, to := r.expr(e.From), r.expr(e.To)
		if from != e.From || to != e.To {
			return &ChanPos{From: from, To: to, Msg: e.Msg}
		}
	case *HeadField:
		from, to := r.expr(e.From), r.expr(e.To)
		if from != e.From || to != e.To {
			return &HeadField{From: from, To: to, First: e.First, Field: e.Field, Index: e.Index, T: e.T}
		}
	case *MsgQuant:
		from, to := r.expr(e.From), r.expr(e.To)
		if from == e.From && to == e.To {
			if body := r.expr(e.Body); body != e.Body {
				return &MsgQuant{Kind: e.Kind, Var: e.Var, From: from, To: to, Msg: e.Msg, Body: body, Pos: e.Pos}
			}
			return e
		}
		// The channel changes: the fields the body reads are those of
		// the copy's messages.
		q := &MsgQuant{Kind: e.Kind, Var: e.Var, From: from, To: to, Msg: e.Msg, Pos: e.Pos}
		r.quants[e] = q
		q.Body = r.expr(e.Body)
		return q
	case *MsgField:
		if q, ok := r.quants[e.Quant]; ok {
			return &MsgField{Quant: q, Field: e.Field, Index: e.Index, T: e.T}
		}
	case *FieldElem:
		changed := false
		elems := make([]Expr, len(e.Elems))
		for i, x := range e.Elems {
			elems[i] = r.expr(x)
			changed = changed || elems[i] != x
		}
		if i := r.expr(e.Index); changed || i != e.Index {
			return &FieldElem{Name: e.Name, Lo: e.Lo, Elems: elems, Index: i, T: e.T, Pos: e.Pos}
		}
	}
	return e
}
