// Package testsys builds small systems whose state graphs are known, for
// the tests of the engines and the graph analyses.
package testsys

import (
	"testing"

	"github.com/ringcheck/ringcheck/model"
)

// Grid is a system whose state graph is known: one process with variables
// a and b in 0..size-1 and two actions, a := a+1 and b := b+1 (when below
// the maximum). From (0,0) every (a,b) is reachable, at depth a+b, and the
// only state with no successor is (size-1, size-1). Grid returns the
// system and the ids of a and b, and fails t if the system does not build.
func Grid(t testing.TB, size int) (*model.System, model.VarID, model.VarID) {
	t.Helper()
	b := model.NewBuilder("grid", model.UniRing, 1)
	va := b.Var("a", model.IntRange(0, size-1))
	vb := b.Var("b", model.IntRange(0, size-1))
	for _, v := range []model.VarID{va, vb} {
		b.Action(model.Action{
			Name:   b.Name(v),
			Guard:  func(c *model.Ctx) bool { return c.Get(v) < size-1 },
			Effect: func(c *model.Ctx, _ int) { c.Set(v, c.Get(v)+1) },
		})
	}
	b.Initial(func(*model.System, *model.State) {})
	sys, err := b.Build()
	if err != nil {
		t.Fatal(err)
	}
	return sys, va, vb
}
