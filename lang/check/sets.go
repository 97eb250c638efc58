package check

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// This file checks the predicates that give sets of configurations to
// start from: `start: EXPR`, from which a check from start starts (every
// configuration where it holds), `init: EXPR` at the top level, whose
// configurations are the initial ones in place of the one the variables'
// initial values and the init effects build, and `closure from: EXPR`,
// the legitimate configurations closure is decided from.

// setPredicate checks a start, init or closure from predicate.
func (c *checker) setPredicate(d *syntax.PredicateDecl) {
	body := c.boolExpr(d.Body, &scope{global: true}, "the "+d.Kind+" predicate")
	p := &ir.Predicate{Name: d.Kind, Doc: d.Doc, Body: body}
	switch d.Kind {
	case "start":
		if c.spec.Start != nil {
			c.errorf(d.Pos, "a second start predicate")
		}
		c.spec.Start = p
	case "init":
		if c.spec.InitSet != nil {
			c.errorf(d.Pos, "a second init predicate")
		}
		c.spec.InitSet = p
	case "closure from":
		if c.spec.ClosureFrom != nil {
			c.errorf(d.Pos, "a second closure from predicate")
		}
		p.Name = "closure-from"
		c.spec.ClosureFrom = p
	}
}

// setRules checks what goes with the start and init predicates: with an
// init predicate, no variable has an initial value and no block has init
// effects (the predicate alone says where a check from init starts); a
// claim from start needs a start predicate, and closure from a
// legitimacy predicate.
func (c *checker) setRules() {
	var initAt, closureAt syntax.Pos
	for _, d := range c.file.Decls {
		if p, ok := d.(*syntax.PredicateDecl); ok && p.Kind == "init" && !initAt.IsValid() {
			initAt = p.Pos
		}
	}
	varInit := func(v *syntax.VarDecl) {
		if v.Init != nil && initAt.IsValid() {
			c.errorf(v.Init.ExprPos(), "%s has an initial value, and the init predicate at %s gives the initial configurations: give one or the other", v.Name.Name, initAt)
		}
	}
	for _, d := range c.file.Decls {
		switch d := d.(type) {
		case *syntax.VarDecl:
			varInit(d)
		case *syntax.ProcessDecl:
			for _, v := range d.Vars {
				varInit(v)
			}
			for _, in := range d.Inits {
				if initAt.IsValid() {
					c.errorf(in.Pos, "init effects, and the init predicate at %s gives the initial configurations: give one or the other", initAt)
				}
			}
		case *syntax.PredicateDecl:
			if d.Kind == "closure from" && c.spec.Legitimate == nil && !closureAt.IsValid() {
				closureAt = d.Pos
				c.errorf(d.Pos, "closure from narrows the legitimate configurations closure is decided from, and the file declares no legitimacy predicate (legitimate: EXPR)")
			}
		case *syntax.ClaimDecl:
			if d.From != nil && d.From.Name == "start" && c.spec.Start == nil {
				c.errorf(d.From.Pos, "a claim from start needs a start predicate (start: EXPR), which the file does not declare")
			}
		}
	}
}
