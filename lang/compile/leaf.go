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
	// v is the constant, or the variable's id; for leafAt, q*nvars+id,
	// the variable's slot in stateEval.flat.
	v int
	q int // the process, for leafAt
}

// The kinds of leaves.
const (
	leafConst = iota
	leafOwn   // the acting process's variable v
	leafPred  // its predecessor's
	leafSucc  // its successor's
	leafAt    // process q's, read in the configuration (stateEval.read)
)

// get reads a leaf of an action in its context c.
func (l leaf) get(c *model.Ctx) int {
	// A constant is read inline.
	if l.kind == leafConst {
		return l.v
	}
	return l.variable(c)
}

// variable reads a leaf of an action that is a variable.
func (l leaf) variable(c *model.Ctx) int {
	switch l.kind {
	case leafPred:
		return c.Read(c.Pred(), model.VarID(l.v))
	case leafSucc:
		return c.Read(c.Succ(), model.VarID(l.v))
	}
	return c.Get(model.VarID(l.v))
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
