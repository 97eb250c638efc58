package symbolic

import (
	"fmt"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// sequential says why the engine cannot encode spec's sequential blocks
// (do { ... }) or run receives (recv run ...), at the place of the
// first, or nil: effects that run in order, and a receive of several
// messages in one step, are the explicit engine's only.
func sequential(spec *ir.Spec) error {
	at := func(pos syntax.Pos, what string) error {
		return fmt.Errorf("spec %s: %w: %w", spec.Name, &syntax.Error{File: spec.File, Pos: pos, Msg: what}, ErrUnsupported)
	}
	var walk func([]ir.Stmt) *ir.Seq
	walk = func(ss []ir.Stmt) *ir.Seq {
		for _, s := range ss {
			var inner [][]ir.Stmt
			switch s := s.(type) {
			case *ir.Seq:
				return s
			case *ir.If:
				inner = [][]ir.Stmt{s.Then, s.Else}
			case *ir.For:
				inner = [][]ir.Stmt{s.Body}
			case *ir.Repeat:
				inner = [][]ir.Stmt{s.Body}
			}
			for _, body := range inner {
				if q := walk(body); q != nil {
					return q
				}
			}
		}
		return nil
	}
	for _, a := range spec.Actions {
		if a.Recv != nil && a.Recv.Run != nil {
			return at(a.Pos, fmt.Sprintf("action %s receives a run (recv run ...), several messages in one step", a.Name))
		}
		if s := walk(a.Effects); s != nil {
			return at(s.Pos, fmt.Sprintf("action %s runs a sequential block (do { ... }), whose effects run in order", a.Name))
		}
	}
	for _, in := range spec.Inits {
		if s := walk(in.Effects); s != nil {
			return at(s.Pos, "an init runs a sequential block (do { ... }), whose effects run in order")
		}
	}
	return nil
}
