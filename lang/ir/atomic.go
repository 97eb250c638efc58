package ir

import "github.com/ringcheck/ringcheck/lang/syntax"

// AssignAt sets variable Var of process Proc, a peer of the acting
// process (or the acting process itself), in an atomic action
// (Action.Atomic). Pos is the assignment's position in the file, for a
// target found not linked, or written twice, when the effect runs.
type AssignAt struct {
	Var         *Var
	Proc, Value Expr
	Pos         syntax.Pos
}

func (*AssignAt) stmt() {}
