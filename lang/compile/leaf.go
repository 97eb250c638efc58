package compile

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/model"
)

// leaf is an operand read without a call of its own: a constant, a
// variable of the acting process or of a neighbour (in an action), or a
// variable of a process known at compile time (in a state expression).
type leaf struct {
	kind uint8
	v    int // the constant, or the variable's id
	q    int // the process, for leafAt
}

// The kinds of leaves.
const (
	leafConst = iota
	leafOwn   // the acting process's variable v
	leafPred  // its predecessor's
	leafSucc  // its successor's
	leafAt    // process q's, read in the configuration
)

// get reads a leaf: in an action, c is its context (and s unused); in a
// state expression, s is the configuration (and c nil).
func (l leaf) get(c *model.Ctx, s *model.State) int {
	// A constant is read inline.
	if l.kind == leafConst {
		return l.v
	}
	return l.other(c, s)
}

// other reads a leaf of the other kinds.
func (l leaf) other(c *model.Ctx, s *model.State) int {
	switch l.kind {
	case leafOwn:
		return c.Get(model.VarID(l.v))
	case leafPred:
		return c.Read(c.Pred(), model.VarID(l.v))
	case leafSucc:
		return c.Read(c.Succ(), model.VarID(l.v))
	}
	return s.Get(l.q, model.VarID(l.v)) // leafAt
}

// constLeaf returns e as a constant leaf: a constant, or a local the
// enclosing unrolled sets bind.
func constLeaf(e ir.Expr, b bindings) (leaf, bool) {
	switch e := e.(type) {
	case *ir.Const:
		return leaf{kind: leafConst, v: e.Value}, true
	case *ir.LocalRef:
		if v, ok := b[e.Local]; ok {
			return leaf{kind: leafConst, v: v}, true
		}
	}
	return leaf{}, false
}
