// Package check resolves and type-checks a parsed ring-language file for
// one instance (its parameters fixed) and produces the instance's
// intermediate representation (package lang/ir). Every problem it finds is
// reported as file:line:col: message.
package check

import (
	"errors"
	"fmt"
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// maxErrors is how many problems Check reports before it stops.
const maxErrors = 10

// Check resolves f for the parameter values given (a parameter not given
// takes its default) and returns the instance. The error, if any, joins up
// to ten *syntax.Error values, one per problem (the first ten found),
// sorted by position: those without one first, then in source order.
func Check(f *syntax.File, values map[string]int) (*ir.Spec, error) {
	c := &checker{
		file:     f,
		spec:     &ir.Spec{Values: map[string]int{}, File: f.Name},
		consts:   map[string]constant{},
		enums:    map[string]*ir.Type{},
		vars:     map[string]*ir.Var{},
		messages: map[string]*ir.Message{},
		defs:     map[string]*syntax.DefDecl{},
		preds:    map[string]*syntax.PredicateDecl{},
		arrays:   map[string]*ir.Array{},
	}
	err := c.run(values)
	if err != nil {
		return nil, err
	}
	return c.spec, nil
}

// Params returns the parameters f declares, with their defaults and ranges.
func Params(f *syntax.File) ([]ir.Param, error) {
	c := &checker{file: f, spec: &ir.Spec{Values: map[string]int{}}, consts: map[string]constant{}}
	func() {
		defer c.recoverStop()
		for _, d := range f.Decls {
			if p, ok := d.(*syntax.ParamDecl); ok {
				c.param(p, nil)
			}
		}
	}()
	if len(c.errs) > 0 {
		return nil, c.joined()
	}
	return c.spec.Params, nil
}

type constant struct {
	value int
	typ   *ir.Type
}

type checker struct {
	file     *syntax.File
	spec     *ir.Spec
	errs     []error
	consts   map[string]constant
	enums    map[string]*ir.Type
	vars     map[string]*ir.Var
	messages map[string]*ir.Message
	// alphabet counts the values of the message types declared so far.
	alphabet int
	defs     map[string]*syntax.DefDecl
	preds    map[string]*syntax.PredicateDecl
	arrays   map[string]*ir.Array
	// expanding lists the defs being expanded, to refuse recursion.
	expanding []string
	// silent, when positive, drops the problems found (see placeholder).
	silent int
	// nodes counts the nodes of the expressions checked so far, with
	// every def and predicate expanded where it is used (see count).
	nodes int
	// use is the outermost use of a def or predicate being expanded (nil
	// when none is), where an expansion too large is reported.
	use *defUse
	// inlinedSizes memoizes inlined, by def and argument sizes.
	inlinedSizes map[string]int
	// invariants holds the position of each invariant's name, to refuse
	// a second invariant of the same name.
	invariants map[string]syntax.Pos
	// checks are the properties of the file's check lists.
	checks []*syntax.Ident
	// groups holds the names declared by several process blocks or held
	// fixed by one (groups.go); such a name is not in vars.
	groups map[string]*varGroup
}

// defUse is a use of a def or predicate, by name, at a place in the file.
type defUse struct {
	name string
	pos  syntax.Pos
}

// stop ends the check once maxErrors problems are known.
type stop struct{}

func (c *checker) recoverStop() {
	if r := recover(); r != nil {
		if _, ok := r.(stop); !ok {
			panic(r)
		}
	}
}

func (c *checker) errorf(pos syntax.Pos, format string, args ...any) {
	if c.silent > 0 {
		return
	}
	err := &syntax.Error{File: c.file.Name, Pos: pos, Msg: fmt.Sprintf(format, args...)}
	// A family of actions checks its declaration once per member: a
	// problem is reported once.
	for _, e := range c.errs {
		if e, ok := e.(*syntax.Error); ok && *e == *err {
			return
		}
	}
	c.errs = append(c.errs, err)
	if len(c.errs) >= maxErrors {
		panic(stop{})
	}
}

func (c *checker) run(values map[string]int) error {
	func() {
		defer c.recoverStop()
		c.declarations(values)
	}()
	if len(c.errs) > 0 {
		return c.joined()
	}
	return nil
}

// RequirementError is the problem of an instance whose parameters' values
// fail one of the spec's require declarations: Err is the located error,
// Reason the declaration's message (what the parameters must meet).
type RequirementError struct {
	Err    *syntax.Error
	Reason string
}

// Error is Err's: "file:line:col: requirement fails for VALUES: REASON".
func (e *RequirementError) Error() string { return e.Err.Error() }

// Unwrap returns Err.
func (e *RequirementError) Unwrap() error { return e.Err }

// joined joins the errors found, sorted by position (those without one
// first; the sort is stable, so problems at one place keep the order
// they were found in).
func (c *checker) joined() error {
	pos := func(e error) syntax.Pos {
		var se *syntax.Error
		if errors.As(e, &se) {
			return se.Pos
		}
		return syntax.Pos{}
	}
	slices.SortStableFunc(c.errs, func(a, b error) int {
		pa, pb := pos(a), pos(b)
		if pa.Line != pb.Line {
			return pa.Line - pb.Line
		}
		return pa.Col - pb.Col
	})
	return errors.Join(c.errs...)
}

// scope is what an expression may refer to besides the declarations.
type scope struct {
	parent *scope
	names  map[string]ir.Expr
	// sizes holds the nodes of those names that stand for expressions
	// (a def's arguments), which each use of the name copies (absent: 1).
	sizes map[string]int
	// global: no acting process (invariants, predicates, initial values).
	global bool
	// acting processes (in an action or init), and whether the action is
	// a timeout (whose guard reads any process) or an init.
	procs   []int
	acting  bool
	timeout bool
	init    bool
	// atomic: in an atomic action, which may assign its peers' variables.
	atomic bool
	// dead: in an effect a constant condition never runs, whose
	// constants are not held to the domains.
	dead bool
	// loops are the names of the enclosing for loops (outside the
	// enclosing sequential block, in one).
	loops []*ir.Local
	// seq is the enclosing sequential block (do { ... }), or nil.
	seq *seqBlock
	// recv is the acting action's receive, or nil.
	recv *ir.Receive
	// access collects what is read; writes what is written (effects).
	access, writes *ir.Access
}

func (s *scope) with(name string, e ir.Expr) *scope {
	n := *s
	n.parent = s
	n.names = map[string]ir.Expr{name: e}
	n.sizes = nil
	return &n
}

func (s *scope) bind(name string, e ir.Expr) {
	if s.names == nil {
		s.names = map[string]ir.Expr{}
	}
	s.names[name] = e
}

// lookup returns what name stands for and its size in nodes.
func (s *scope) lookup(name string) (ir.Expr, int, bool) {
	for sc := s; sc != nil; sc = sc.parent {
		if e, ok := sc.names[name]; ok {
			return e, max(1, sc.sizes[name]), true
		}
	}
	return nil, 0, false
}

func (s *scope) recordVar(v *ir.Var, proc ir.Expr) {
	if s.access == nil {
		return
	}
	for _, a := range s.access.Vars {
		if a.Var == v && sameExpr(a.Proc, proc) {
			return
		}
	}
	s.access.Vars = append(s.access.Vars, ir.VarAccess{Var: v, Proc: proc})
	if !relative(proc) {
		s.access.Global = true
	}
}

func (s *scope) recordChan(from, to ir.Expr) {
	acc := s.access
	if acc == nil {
		return
	}
	for _, a := range acc.Chans {
		if sameExpr(a.From, from) && sameExpr(a.To, to) {
			return
		}
	}
	acc.Chans = append(acc.Chans, ir.ChanAccess{From: from, To: to})
	if !relative(from) || !relative(to) {
		acc.Global = true
	}
}

// relative reports whether a process expression is the acting process, a
// neighbour of it, or a constant.
func relative(e ir.Expr) bool {
	switch e := e.(type) {
	case nil, *ir.Self, *ir.Const:
		return true
	case *ir.Neighbor:
		return relative(e.Of)
	}
	return false
}

func sameExpr(a, b ir.Expr) bool {
	switch a := a.(type) {
	case nil:
		return b == nil
	case *ir.Self:
		_, ok := b.(*ir.Self)
		return ok
	case *ir.Const:
		bc, ok := b.(*ir.Const)
		return ok && a.Value == bc.Value
	case *ir.Neighbor:
		bn, ok := b.(*ir.Neighbor)
		return ok && a.Offset == bn.Offset && sameExpr(a.Of, bn.Of)
	}
	return false
}
