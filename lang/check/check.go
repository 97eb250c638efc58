// Package check resolves and type-checks a parsed ring-language file for
// one instance (its parameters fixed) and produces the instance's
// intermediate representation (package lang/ir). Every problem it finds is
// reported as file:line:col: message.
package check

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
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

// joined joins the errors found, sorted by position (those without one
// first; the sort is stable, so problems at one place keep the order
// they were found in).
func (c *checker) joined() error {
	pos := func(e error) syntax.Pos {
		if se, ok := e.(*syntax.Error); ok {
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

func (c *checker) declarations(values map[string]int) {
	decls := c.file.Decls
	// Parameters, constants and types come first, whatever their order in
	// the file relative to the rest, so that every later declaration may
	// use them; among themselves they are read in order.
	var topo *syntax.TopologyDecl
	for _, d := range decls {
		switch d := d.(type) {
		case *syntax.SpecDecl:
			if c.spec.Name != "" {
				c.errorf(d.Pos, "a second spec declaration (the spec is %s)", c.spec.Name)
			}
			c.spec.Name, c.spec.Summary = d.Name.Name, d.Summary
		case *syntax.SourceDecl:
			c.spec.Source = d.Text
		case *syntax.ParamDecl:
			c.param(d, values)
		case *syntax.ConstDecl:
			v, ok := c.constIntOK(d.Value, "a constant")
			c.define(d.Name, v, typeIf(ok, ir.IntType()))
		case *syntax.EnumDecl:
			c.enum(d)
		case *syntax.RequireDecl:
			k := c.expr(d.Cond, &scope{global: true})
			switch kc, ok := k.(*ir.Const); {
			case invalid(k):
			case !ok || kc.T.Kind != ir.Bool:
				c.errorf(d.Cond.ExprPos(), "a requirement is a boolean constant over the parameters")
			case kc.Value == 0:
				msg := "the parameters do not meet it"
				if d.Msg != "" {
					msg = d.Msg
				}
				c.errorf(d.Pos, "requirement fails for %s: %s", specsValues(c.spec.Values), msg)
			}
		case *syntax.TopologyDecl:
			if topo != nil {
				c.errorf(d.Pos, "a second topology (the first is at %s)", topo.Pos)
			}
			topo = d
		}
	}
	for name := range values {
		if _, ok := c.spec.Values[name]; !ok {
			c.errorf(syntax.Pos{}, "spec %s has no parameter %q", c.spec.Name, name)
		}
	}
	if c.spec.Name == "" {
		c.errorf(syntax.Pos{Line: 1, Col: 1}, "no spec declaration (spec NAME \"summary\")")
	}
	if topo == nil {
		c.errorf(syntax.Pos{Line: 1, Col: 1}, "no topology declaration (topology ring(n))")
		return
	}
	c.topology(topo)
	if len(c.errs) > 0 {
		return
	}
	for _, d := range decls {
		switch d := d.(type) {
		case *syntax.VarDecl:
			c.variable(d, allProcs(c.spec.N))
		case *syntax.MessageDecl:
			c.message(d)
		case *syntax.DefDecl:
			c.def(d)
		case *syntax.PredicateDecl:
			if d.Kind == "predicate" {
				if c.taken(d.Name.Name) {
					c.errorf(d.Name.Pos, "%s is declared twice", d.Name.Name)
					continue
				}
				c.preds[d.Name.Name] = d
			}
		}
	}
	// Variables of process blocks, before any action reads them.
	for _, d := range decls {
		if d, ok := d.(*syntax.ProcessDecl); ok {
			procs := c.procSet(d)
			for _, v := range d.Vars {
				c.variable(v, procs)
			}
		}
	}
	for _, d := range decls {
		if d, ok := d.(*syntax.ChannelsDecl); ok {
			c.channels(d)
		}
	}
	for _, d := range decls {
		switch d := d.(type) {
		case *syntax.ProcessDecl:
			c.process(d)
		case *syntax.PredicateDecl:
			c.predicate(d)
		case *syntax.ClaimDecl:
			c.claim(d)
		case *syntax.ChecksDecl:
			for _, p := range d.Properties {
				if !knownProperty(p.Name) {
					c.errorf(p.Pos, "unknown property %q (known: %s)", p.Name, propertyList)
				}
				c.spec.Checks = append(c.spec.Checks, p.Name)
				c.checks = append(c.checks, p)
			}
		}
	}
	c.checkList()
	if c.spec.Channels == nil {
		for _, m := range c.spec.Messages {
			c.errorf(m.Pos, "message %s is declared but there are no channels (channels capacity C)", m.Name)
		}
	}
}

const propertyList = "safety, deadlock, starvation, leads-to, closure, convergence"

// checkList checks the file's check lists as a check without options
// runs them: each property named once, each with what it needs declared
// (the predicates requesting and inCS for starvation, a legitimacy
// predicate for closure and convergence), and none of those checked from
// the initial configurations (starvation, leads-to) with one of those
// checked from every configuration (closure, convergence).
func (c *checker) checkList() {
	var fromInit, fromAll *syntax.Ident
	for i, p := range c.checks {
		if slices.ContainsFunc(c.checks[:i], func(q *syntax.Ident) bool { return q.Name == p.Name }) {
			c.errorf(p.Pos, "%s is named twice in the check list", p.Name)
			continue
		}
		switch p.Name {
		case "starvation":
			var missing []string
			for _, name := range []string{"requesting", "inCS"} {
				if _, ok := c.preds[name]; !ok {
					missing = append(missing, "predicate "+name+"(p)")
				}
			}
			if len(missing) > 0 {
				c.errorf(p.Pos, "starvation needs the per-process predicates requesting(p) and inCS(p): the file declares no %s", strings.Join(missing, " and no "))
			}
		case "closure", "convergence":
			if c.spec.Legitimate == nil {
				c.errorf(p.Pos, "%s needs a legitimacy predicate (legitimate: EXPR), which the file does not declare", p.Name)
			}
		}
		switch p.Name {
		case "starvation", "leads-to":
			if fromInit == nil {
				fromInit = p
			}
		case "closure", "convergence":
			if fromAll == nil {
				fromAll = p
			}
		}
	}
	if fromInit != nil && fromAll != nil {
		later, first := fromInit, fromAll
		if later.Pos.Line < first.Pos.Line || (later.Pos.Line == first.Pos.Line && later.Pos.Col < first.Pos.Col) {
			later, first = first, later
		}
		c.errorf(later.Pos, "%s and %s are not checked in one run (%s from the initial configurations, %s from every configuration): list them in separate checks", first.Name, later.Name, fromInit.Name, fromAll.Name)
	}
}

func knownProperty(p string) bool {
	switch p {
	case "safety", "deadlock", "starvation", "leads-to", "closure", "convergence":
		return true
	}
	return false
}

// taken reports whether name is already a constant, type, variable,
// array, message, def or per-process predicate.
func (c *checker) taken(name string) bool {
	_, a := c.consts[name]
	_, b := c.enums[name]
	_, v := c.vars[name]
	_, m := c.messages[name]
	_, d := c.defs[name]
	_, r := c.arrays[name]
	_, p := c.preds[name]
	return a || b || v || m || d || r || p
}

func (c *checker) define(id *syntax.Ident, v int, t *ir.Type) {
	if c.taken(id.Name) || id.Name == "bool" {
		c.errorf(id.Pos, "%s is declared twice", id.Name)
		return
	}
	c.consts[id.Name] = constant{value: v, typ: t}
}

func (c *checker) param(d *syntax.ParamDecl, values map[string]int) {
	def, okDef := c.constIntOK(d.Default, "a parameter's default")
	lo, okLo := c.constIntOK(d.Lo, "a parameter's bound")
	hi, okHi := c.constIntOK(d.Hi, "a parameter's bound")
	okRange := okLo && okHi
	if okRange && lo > hi {
		c.errorf(d.Lo.ExprPos(), "parameter %s has an empty range %d..%d", d.Name.Name, lo, hi)
	}
	if okDef && okRange && (def < lo || def > hi) {
		c.errorf(d.Default.ExprPos(), "parameter %s's default %d is outside %d..%d", d.Name.Name, def, lo, hi)
	}
	c.spec.Params = append(c.spec.Params, ir.Param{Name: d.Name.Name, Default: def, Min: lo, Max: hi, Doc: d.Doc})
	v, ok := def, okDef
	if given, isGiven := values[d.Name.Name]; isGiven {
		if okRange && (given < lo || given > hi) {
			c.errorf(d.Name.Pos, "parameter %s=%d is outside its range %d..%d", d.Name.Name, given, lo, hi)
		}
		v, ok = given, true
	}
	c.spec.Values[d.Name.Name] = v
	c.define(d.Name, v, typeIf(ok, ir.IntType()))
}

func (c *checker) enum(d *syntax.EnumDecl) {
	t := &ir.Type{Kind: ir.Enum, Name: d.Name.Name, Lo: 0, Hi: len(d.Values) - 1}
	if c.taken(d.Name.Name) {
		c.errorf(d.Name.Pos, "%s is declared twice", d.Name.Name)
	}
	c.enums[d.Name.Name] = t
	for i, v := range d.Values {
		t.Labels = append(t.Labels, v.Name)
		c.define(v, i, t)
	}
}

func (c *checker) topology(d *syntax.TopologyDecl) {
	switch d.Kind.Name {
	case "ring":
		c.spec.Topology = model.UniRing
	case "biring":
		c.spec.Topology = model.BiRing
	case "complete":
		c.spec.Topology = model.Complete
	default:
		c.errorf(d.Kind.Pos, "unknown topology %q (ring, biring or complete)", d.Kind.Name)
	}
	n, ok := c.constIntOK(d.N, "the number of processes")
	if ok && (n < 1 || n > 64) {
		c.errorf(d.N.ExprPos(), "the number of processes is %d, outside 1..64", n)
	}
	if !ok || n < 1 || n > 64 {
		n = 1
	}
	c.spec.N = n
	top := model.Topology{Kind: c.spec.Topology, N: n}
	c.spec.Peers = make([][]int, n)
	for p := range n {
		for q := range n {
			if q != p && (top.Linked(p, q) || top.Linked(q, p)) {
				c.spec.Peers[p] = append(c.spec.Peers[p], q)
			}
		}
	}
}

func allProcs(n int) []int {
	ps := make([]int, n)
	for i := range ps {
		ps[i] = i
	}
	return ps
}

// procSet evaluates a process block's set.
func (c *checker) procSet(d *syntax.ProcessDecl) []int {
	if d.All {
		return allProcs(c.spec.N)
	}
	lo, ok := c.constIntOK(d.Lo, "a process number")
	hi := lo
	if d.Hi != nil {
		var okHi bool
		hi, okHi = c.constIntOK(d.Hi, "a process number")
		ok = ok && okHi
	}
	if !ok {
		return nil
	}
	if lo < 0 || hi >= c.spec.N || lo > hi {
		c.errorf(d.Lo.ExprPos(), "process set %d..%d is not within 0..%d", lo, hi, c.spec.N-1)
		return nil
	}
	var ps []int
	for p := lo; p <= hi; p++ {
		ps = append(ps, p)
	}
	return ps
}

// typ resolves a declared type.
func (c *checker) typ(t *syntax.Type) *ir.Type {
	if t.Name != nil {
		if t.Name.Name == "bool" {
			return ir.BoolType()
		}
		if e, ok := c.enums[t.Name.Name]; ok {
			return e
		}
		c.errorf(t.Name.Pos, "unknown type %s (bool, an enumeration or lo..hi)", t.Name.Name)
		return invalidType
	}
	before := len(c.errs)
	lo := c.constInt(t.Lo, "a range bound")
	hi := c.constInt(t.Hi, "a range bound")
	switch {
	case lo < math.MinInt32 || hi > math.MaxInt32:
		c.errorf(t.Pos, "range %d..%d is not within %d..%d: a value is a 32-bit integer", lo, hi, math.MinInt32, math.MaxInt32)
		lo, hi = 0, 0
	case lo > hi:
		// A bound already reported is not an empty range besides.
		if len(c.errs) == before {
			c.errorf(t.Pos, "empty range %d..%d", lo, hi)
		}
		hi = lo
	case hi-lo >= maxDomain:
		// Kept as it is, so that no value in it is reported besides.
		c.errorf(t.Pos, "range %d..%d is too large: a type has at most %d values", lo, hi, maxDomain)
	}
	return &ir.Type{Kind: ir.Int, Lo: lo, Hi: hi}
}

// maxDomain is the most values a range type has: the model's bound on a
// domain's size.
const maxDomain = 1<<31 - 1

// bound evaluates the bound of a range of integers (a set's, an array's
// index, a choice's), and reports whether it is one without a problem:
// a bound is a 32-bit integer, as a value is.
func (c *checker) bound(e syntax.Expr, what string) (int, bool) {
	v, ok := c.constIntOK(e, what)
	if ok && (v < math.MinInt32 || v > math.MaxInt32) {
		c.errorf(e.ExprPos(), "%s %d is not within %d..%d", what, v, math.MinInt32, math.MaxInt32)
		return 0, false
	}
	return v, ok
}

// tooWide reports whether lo..hi has more than limit members, for any
// constants (hi-lo may overflow).
func tooWide(lo, hi, limit int) bool {
	d, ok := ir.Sub(hi, lo)
	if !ok {
		return hi > lo
	}
	return d >= limit
}

func (c *checker) variable(d *syntax.VarDecl, procs []int) {
	if c.taken(d.Name.Name) {
		c.errorf(d.Name.Pos, "%s is declared twice", d.Name.Name)
		_, v := c.vars[d.Name.Name]
		_, a := c.arrays[d.Name.Name]
		if v || a || d.Index != nil {
			return
		}
		// Declared all the same where the name is not a variable's
		// already (a predicate's, a def's), so that its uses are not
		// reported besides.
	}
	t := c.typ(d.Type)
	v := &ir.Var{Name: d.Name.Name, Type: t, Procs: procs, Doc: d.Doc, Pos: d.Pos, ID: len(c.spec.Vars), Init: t.Lo}
	v.Init = c.initial(d, t)
	if d.Index != nil {
		c.array(d, t, v.Init, procs)
		return
	}
	c.vars[v.Name] = v
	c.spec.Vars = append(c.spec.Vars, v)
}

// initial checks a variable's initial value.
func (c *checker) initial(d *syntax.VarDecl, t *ir.Type) int {
	if d.Init != nil {
		e := c.expr(d.Init, &scope{global: true})
		k, ok := e.(*ir.Const)
		switch {
		case invalid(e) || t == invalidType:
		case !ok:
			c.errorf(d.Init.ExprPos(), "a variable's initial value must be a constant (use init: in a process block for one that depends on the process)")
		case !assignable(t, k.T):
			c.errorf(d.Init.ExprPos(), "initial value of type %s for %s of type %s", typeName(k.T), d.Name.Name, typeName(t))
		case k.Value < t.Lo || k.Value > t.Hi:
			c.errorf(d.Init.ExprPos(), "initial value %d of %s is outside %s", k.Value, d.Name.Name, t.Domain())
		default:
			return k.Value
		}
	}
	return t.Lo
}

func (c *checker) message(d *syntax.MessageDecl) {
	if c.taken(d.Name.Name) {
		c.errorf(d.Name.Pos, "%s is declared twice", d.Name.Name)
		return
	}
	m := &ir.Message{Name: d.Name.Name, ID: len(c.spec.Messages), Pos: d.Pos}
	if len(d.Fields) > ir.MaxFields {
		// The fields are declared all the same, so that sends and
		// receives of the message are not reported besides.
		c.errorf(d.Fields[ir.MaxFields].Name.Pos, "message %s has %d fields: a message has at most %d", m.Name, len(d.Fields), ir.MaxFields)
	}
	for _, f := range d.Fields {
		for _, g := range m.Fields {
			if g.Name == f.Name.Name {
				c.errorf(f.Name.Pos, "message %s has two fields %s", m.Name, g.Name)
			}
		}
		m.Fields = append(m.Fields, &ir.Field{Name: f.Name.Name, Type: c.typ(f.Type)})
	}
	c.messages[m.Name] = m
	c.spec.Messages = append(c.spec.Messages, m)
}

func (c *checker) def(d *syntax.DefDecl) {
	if c.taken(d.Name.Name) {
		c.errorf(d.Name.Pos, "%s is declared twice", d.Name.Name)
		return
	}
	c.defs[d.Name.Name] = d
}

func (c *checker) channels(d *syntax.ChannelsDecl) {
	if c.spec.Channels != nil {
		c.errorf(d.Pos, "a second channels declaration")
		return
	}
	capacity, ok := c.constIntOK(d.Capacity, "a channel capacity")
	ch := &ir.Channels{Capacity: capacity}
	if ok && (ch.Capacity < 1 || ch.Capacity > 255) {
		c.errorf(d.Capacity.ExprPos(), "channel capacity %d is outside 1..255", ch.Capacity)
	}
	if d.Overflow != nil {
		o, err := model.ParseOverflow(d.Overflow.Name)
		if err != nil {
			c.errorf(d.Overflow.Pos, "%v", err)
		}
		ch.Overflow = o
	}
	for _, id := range d.Carry {
		m, ok := c.messages[id.Name]
		if !ok {
			c.errorf(id.Pos, "unknown message %s", id.Name)
			continue
		}
		ch.Carry = append(ch.Carry, m)
	}
	c.spec.Channels = ch
}

func (c *checker) process(d *syntax.ProcessDecl) {
	procs := c.procSet(d)
	if d.FirstEnabled {
		c.spec.FirstEnabled = append(c.spec.FirstEnabled, procs...)
		slices.Sort(c.spec.FirstEnabled)
		c.spec.FirstEnabled = slices.Compact(c.spec.FirstEnabled)
	}
	for _, a := range d.Actions {
		c.action(a, procs)
	}
	for _, in := range d.Inits {
		sc := &scope{procs: procs, acting: true, init: true}
		c.spec.Inits = append(c.spec.Inits, &ir.Init{Procs: procs, Effects: c.stmts(in.Effects, sc, assignments{}), Pos: in.Pos})
	}
}

func (c *checker) action(d *syntax.ActionDecl, procs []int) {
	if d.Peer == nil {
		c.actionFor(d, d.Name.Name, procs, nil)
		return
	}
	// One action per peer j, of the processes j is a peer of, with the
	// parameter bound to the constant j.
	declared := false
	for j := range c.spec.N {
		var with []int
		for _, p := range procs {
			if slices.Contains(c.spec.Peers[p], j) {
				with = append(with, p)
			}
		}
		if len(with) > 0 {
			declared = true
			c.actionFor(d, fmt.Sprintf("%s(%d)", d.Name.Name, j), with, &ir.Const{Value: j, T: ir.IntType()})
		}
	}
	if !declared {
		c.errorf(d.Peer.Pos, "no process of the block has a peer: %s(%s in peers) declares no action", d.Name.Name, d.Peer.Name)
	}
}

// actionFor checks an action named name of procs; peer, when not nil, is
// the value of the family's parameter.
func (c *checker) actionFor(d *syntax.ActionDecl, name string, procs []int, peer ir.Expr) {
	a := &ir.Action{Name: name, Pos: d.Pos, Procs: procs}
	switch {
	case d.Environment:
		a.Kind = model.Environment
	case d.Timeout:
		a.Kind = model.Timeout
	}
	if d.Role != nil {
		if d.Role.Name == "finite" {
			a.Liveness = model.Finite
		} else {
			a.Liveness = model.Optional
		}
	}
	sc := &scope{procs: procs, acting: true, timeout: d.Timeout, access: &a.Reads}
	if peer != nil {
		if c.taken(d.Peer.Name) {
			c.errorf(d.Peer.Pos, "%s is already declared: name the peer differently", d.Peer.Name)
		}
		sc = sc.with(d.Peer.Name, peer)
	}
	if d.Recv != nil {
		a.Recv = c.receive(d.Recv, sc)
	}
	if d.Guard != nil {
		a.Guard = c.boolExpr(d.Guard, sc, "a guard")
	} else {
		a.Guard = &ir.Const{Value: 1, T: ir.BoolType()}
	}
	if d.Choice != nil {
		lo, okLo := c.bound(d.ChoiceLo, "a choice's bound")
		hi, okHi := c.bound(d.ChoiceHi, "a choice's bound")
		switch {
		case !okLo || !okHi:
			hi = lo
		case lo > hi:
			c.errorf(d.ChoiceLo.ExprPos(), "choice %s has an empty range %d..%d", d.Choice.Name, lo, hi)
			hi = lo
		case tooWide(lo, hi, maxSetLen):
			c.errorf(d.ChoiceLo.ExprPos(), "choice %s ranges over %d..%d: a choice has at most %d alternatives", d.Choice.Name, lo, hi, maxSetLen)
			hi = lo
		}
		a.Choice = &ir.Local{Name: d.Choice.Name, Type: &ir.Type{Kind: ir.Int, Lo: lo, Hi: hi}, Lo: lo, Hi: hi}
		sc = sc.with(d.Choice.Name, &ir.LocalRef{Local: a.Choice})
	}
	sc.access = &a.Reads
	sc.writes = &a.Writes
	a.Effects = c.stmts(d.Effects, sc, assignments{})
	c.spec.Actions = append(c.spec.Actions, a)
}

func (c *checker) receive(r *syntax.Receive, sc *scope) *ir.Receive {
	m, ok := c.messages[r.Msg.Name]
	if !ok {
		c.errorf(r.Msg.Pos, "unknown message %s", r.Msg.Name)
		m = &ir.Message{Name: r.Msg.Name}
	}
	if c.spec.Channels == nil {
		c.errorf(r.Pos, "recv needs channels (channels capacity C)")
	}
	rc := &ir.Receive{Msg: m, From: c.procExpr(r.From, sc)}
	if len(r.Fields) != len(m.Fields) && ok {
		c.errorf(r.Pos, "message %s has %d fields, recv binds %d", m.Name, len(m.Fields), len(r.Fields))
	}
	c.link(r.From.ExprPos(), rc.From, &ir.Self{}, sc, "receive from")
	sc.recordChan(rc.From, &ir.Self{})
	for i, f := range r.Fields {
		if i >= len(m.Fields) {
			break
		}
		if f.Name != "_" {
			if c.taken(f.Name) {
				c.errorf(f.Pos, "%s is already declared: name the field differently", f.Name)
			}
			sc.bind(f.Name, &ir.FieldRef{Recv: rc, Index: i})
		}
	}
	return rc
}

// link checks, where it can tell, that the topology has a link from → to
// for the acting processes.
func (c *checker) link(pos syntax.Pos, from, to ir.Expr, sc *scope, what string) {
	top := model.Topology{Kind: c.spec.Topology, N: c.spec.N}
	for _, p := range sc.procs {
		f, okf := staticProc(from, p, c.spec.N)
		t, okt := staticProc(to, p, c.spec.N)
		if okf && okt && !top.Linked(f, t) {
			c.errorf(pos, "process %d cannot %s process %d: the %s has no channel %d→%d", p, what, map[bool]int{true: f, false: t}[what == "receive from"], top.Kind, f, t)
			return
		}
	}
}

// staticProc evaluates a process expression for acting process p when it
// depends on nothing else.
func staticProc(e ir.Expr, p, n int) (int, bool) {
	switch e := e.(type) {
	case *ir.Self:
		return p, true
	case *ir.Const:
		return ((e.Value % n) + n) % n, true
	case *ir.Neighbor:
		q, ok := staticProc(e.Of, p, n)
		return ir.Offset(q, e.Offset, n), ok
	}
	return 0, false
}

func (c *checker) predicate(d *syntax.PredicateDecl) {
	sc := &scope{global: true}
	switch d.Kind {
	case "invariant":
		if at, twice := c.invariants[d.Name.Name]; twice {
			c.errorf(d.Name.Pos, "invariant %s is declared twice (first at %s)", d.Name.Name, at)
		} else {
			if c.invariants == nil {
				c.invariants = map[string]syntax.Pos{}
			}
			c.invariants[d.Name.Name] = d.Name.Pos
		}
		c.spec.Invariants = append(c.spec.Invariants, &ir.Predicate{Name: d.Name.Name, Doc: d.Doc, Body: c.boolExpr(d.Body, sc, "an invariant")})
	case "legitimate":
		if c.spec.Legitimate != nil {
			c.errorf(d.Pos, "a second legitimacy predicate")
		}
		c.spec.Legitimate = &ir.Predicate{Name: "legitimate", Doc: d.Doc, Body: c.boolExpr(d.Body, sc, "the legitimacy predicate")}
	case "valid_end":
		if c.spec.ValidEnd != nil {
			c.errorf(d.Pos, "a second valid_end predicate")
		}
		c.spec.ValidEnd = &ir.Predicate{Name: "valid-end", Doc: d.Doc, Body: c.boolExpr(d.Body, sc, "the valid end predicate")}
	case "predicate":
		l := &ir.Local{Name: d.Param.Name, Type: &ir.Type{Kind: ir.Int, Lo: 0, Hi: c.spec.N - 1}, Lo: 0, Hi: c.spec.N - 1}
		body := c.boolExpr(d.Body, sc.with(d.Param.Name, &ir.LocalRef{Local: l}), "a process predicate")
		c.spec.ProcessPredicates = append(c.spec.ProcessPredicates, &ir.ProcessPredicate{Name: d.Name.Name, Doc: d.Doc, Param: l, Body: body})
	}
}

func (c *checker) claim(d *syntax.ClaimDecl) {
	cl := ir.Claim{Property: d.Property.Name, Verdict: d.Verdict.Name, Source: d.Source, Params: map[string]int{}}
	if !knownProperty(cl.Property) {
		c.errorf(d.Property.Pos, "unknown property %q (known: %s)", cl.Property, propertyList)
	}
	if cl.Verdict != "holds" && cl.Verdict != "violated" {
		c.errorf(d.Verdict.Pos, "a claim's verdict is holds or violated, not %q", cl.Verdict)
	}
	if d.Found != nil {
		cl.Found = d.Found.Name
		if cl.Found == cl.Verdict || (cl.Found != "holds" && cl.Found != "violated") {
			c.errorf(d.Found.Pos, "found is the other verdict than the paper's: %s here", map[bool]string{true: "violated", false: "holds"}[cl.Verdict == "holds"])
		}
	}
	if d.From != nil {
		cl.From = d.From.Name
		if cl.From != "init" && cl.From != "all" {
			c.errorf(d.From.Pos, "a claim is from init or from all, not %q", cl.From)
		}
	}
	if d.Fairness != nil {
		cl.Fairness = d.Fairness.Name
		if !slices.Contains(fairnesses, cl.Fairness) {
			c.errorf(d.Fairness.Pos, "fairness is none, weak, strong, weak-action or strong-action, not %q", cl.Fairness)
		}
	}
	for _, pv := range d.Params {
		v, ok := c.constIntOK(pv.Value, "a parameter's value")
		cl.Params[pv.Name.Name] = v
		i := slices.IndexFunc(c.spec.Params, func(p ir.Param) bool { return p.Name == pv.Name.Name })
		if i < 0 {
			c.errorf(pv.Name.Pos, "spec %s has no parameter %q", c.spec.Name, pv.Name.Name)
			continue
		}
		if p := c.spec.Params[i]; ok && (v < p.Min || v > p.Max) {
			c.errorf(pv.Value.ExprPos(), "parameter %s=%d is outside its range %d..%d", p.Name, v, p.Min, p.Max)
		}
	}
	c.spec.Claims = append(c.spec.Claims, cl)
}

// fairnesses are the fairness assumptions a claim may name: those
// invariants.ParseFairness accepts (lang does not import the engines).
var fairnesses = []string{"none", "weak", "strong", "weak-action", "strong-action"}

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
	// dead: in an effect a constant condition never runs, whose
	// constants are not held to the domains.
	dead bool
	// loops are the names of the enclosing for loops.
	loops []*ir.Local
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

// constInt evaluates an integer constant expression.
func (c *checker) constInt(e syntax.Expr, what string) int {
	v, _ := c.constIntOK(e, what)
	return v
}

// constIntOK evaluates an integer constant expression, and reports
// whether it is one without a problem (a problem is reported once: a
// value that depends on it is not checked besides).
func (c *checker) constIntOK(e syntax.Expr, what string) (int, bool) {
	before := len(c.errs)
	x := c.expr(e, &scope{global: true})
	k, ok := x.(*ir.Const)
	switch {
	case invalid(x):
		return 0, false
	case !ok:
		c.errorf(e.ExprPos(), "%s must be a constant", what)
		return 0, false
	case k.T.Kind != ir.Int:
		c.errorf(e.ExprPos(), "%s must be an integer, not %s", what, typeName(k.T))
		return k.Value, false
	}
	return k.Value, len(c.errs) == before
}

// invalidType is the type of an expression with a problem already
// reported: no rule is checked against it, so that one mistake is
// reported once, where it is (as go/types does with an invalid operand).
// It never reaches an instance: Check returns none when it reports a
// problem.
var invalidType = &ir.Type{Kind: ir.Kind(-1), Name: "invalid"}

// poison stands for an expression with a problem already reported.
type poison struct{}

// Type is invalidType.
func (poison) Type() *ir.Type { return invalidType }

// invalid reports whether x has a problem already reported.
func invalid(x ir.Expr) bool { return x.Type() == invalidType }

// typeIf returns t when ok, invalidType otherwise.
func typeIf(ok bool, t *ir.Type) *ir.Type {
	if ok {
		return t
	}
	return invalidType
}

func (c *checker) boolExpr(e syntax.Expr, sc *scope, what string) ir.Expr {
	x := c.expr(e, sc)
	if !invalid(x) && x.Type().Kind != ir.Bool {
		c.errorf(e.ExprPos(), "%s must be a boolean, not %s", what, typeName(x.Type()))
	}
	return x
}

func (c *checker) intExpr(e syntax.Expr, sc *scope, what string) ir.Expr {
	x := c.expr(e, sc)
	if !invalid(x) && x.Type().Kind != ir.Int {
		c.errorf(e.ExprPos(), "%s must be an integer, not %s", what, typeName(x.Type()))
	}
	return x
}

// procExpr checks a process expression (an integer, taken modulo N).
func (c *checker) procExpr(e syntax.Expr, sc *scope) ir.Expr {
	return c.intExpr(e, sc, "a process")
}

func typeName(t *ir.Type) string {
	switch t.Kind {
	case ir.Bool:
		return "bool"
	case ir.Enum:
		return t.Name
	}
	return "int"
}

// assignable reports whether a value of type v may be stored in a
// variable of type t.
func assignable(t, v *ir.Type) bool {
	if t.Kind == ir.Enum {
		return v.Kind == ir.Enum && v.Name == t.Name
	}
	return t.Kind == v.Kind
}

func (c *checker) expr(e syntax.Expr, sc *scope) ir.Expr {
	c.count(1, e.ExprPos())
	if c.spec.N == 0 && needsProcesses(e) {
		c.errorf(e.ExprPos(), "a parameter, constant or bound cannot depend on the processes, which the topology declares")
		return poison{}
	}
	switch e := e.(type) {
	case *syntax.IntLit:
		return &ir.Const{Value: e.Value, T: ir.IntType()}
	case *syntax.BoolLit:
		return &ir.Const{Value: b2i(e.Value), T: ir.BoolType()}
	case *syntax.ParenExpr:
		return c.expr(e.X, sc)
	case *syntax.Ident:
		return c.ident(e, sc)
	case *syntax.IndexExpr:
		return c.index(e, sc)
	case *syntax.CallExpr:
		return c.call(e, sc)
	case *syntax.SelectorExpr:
		return c.selector(e, sc)
	case *syntax.UnaryExpr:
		x := c.expr(e.X, sc)
		if invalid(x) {
			return x
		}
		if e.Op == syntax.Not {
			if x.Type().Kind != ir.Bool {
				c.errorf(e.Pos, "! needs a boolean, not %s", typeName(x.Type()))
			}
			if k, ok := x.(*ir.Const); ok {
				return &ir.Const{Value: 1 - k.Value, T: ir.BoolType()}
			}
		} else {
			if x.Type().Kind != ir.Int {
				c.errorf(e.Pos, "- needs an integer, not %s", typeName(x.Type()))
			}
			if k, ok := x.(*ir.Const); ok {
				v, ok := ir.Neg(k.Value)
				if !ok {
					c.errorf(e.Pos, "%s", constantOverflow(fmt.Sprintf("-(%d)", k.Value)))
					return poison{}
				}
				return &ir.Const{Value: v, T: ir.IntType()}
			}
		}
		return &ir.Unary{Op: e.Op, X: x, Pos: e.Pos}
	case *syntax.BinaryExpr:
		return c.binary(e, sc)
	case *syntax.CondExpr:
		cond := c.boolExpr(e.Cond, sc, "a condition")
		x, y := c.expr(e.X, sc), c.expr(e.Y, sc)
		if invalid(x) || invalid(y) {
			return poison{}
		}
		if !sameType(x.Type(), y.Type()) {
			c.errorf(e.Pos, "the branches of if have types %s and %s", typeName(x.Type()), typeName(y.Type()))
		}
		if k, ok := cond.(*ir.Const); ok {
			if k.Value != 0 {
				return x
			}
			return y
		}
		return &ir.Cond{C: cond, X: x, Y: y}
	case *syntax.QuantExpr:
		var over *ir.Set
		l := &ir.Local{Name: e.Var.Name, Type: &ir.Type{Kind: ir.Int, Lo: 0, Hi: c.spec.N - 1}, Lo: 0, Hi: c.spec.N - 1}
		if e.Over != nil {
			s := c.set(e.Over, sc)
			over, l = s.Set, s.local(e.Var.Name)
		}
		inner := sc.with(e.Var.Name, &ir.LocalRef{Local: l})
		var body ir.Expr
		if e.Kind == "sum" {
			body = c.intExpr(e.Body, inner, "the body of sum")
		} else {
			body = c.boolExpr(e.Body, inner, "the body of "+e.Kind)
		}
		return &ir.Quant{Kind: e.Kind, Var: l, Over: over, Body: body, Pos: e.Pos}
	}
	c.errorf(e.ExprPos(), "unexpected expression")
	return poison{}
}

// needsProcesses reports whether e, at its top, is about processes: a
// quantifier, a variable, a neighbour, a channel.
func needsProcesses(e syntax.Expr) bool {
	switch e := e.(type) {
	case *syntax.QuantExpr, *syntax.IndexExpr, *syntax.SelectorExpr:
		return true
	case *syntax.Ident:
		return e.Name == "self" || e.Name == "pred" || e.Name == "succ"
	case *syntax.CallExpr:
		switch e.Fun.Name {
		case "pred", "succ", "len", "msgs", "head", "first", "pos":
			return true
		}
	}
	return false
}

// specsValues renders parameter values sorted by name, as "K=3 n=5".
func specsValues(v map[string]int) string {
	names := make([]string, 0, len(v))
	for k := range v {
		names = append(names, k)
	}
	sort.Strings(names)
	out := ""
	for i, k := range names {
		if i > 0 {
			out += " "
		}
		out += fmt.Sprintf("%s=%d", k, v[k])
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func sameType(a, b *ir.Type) bool {
	if a.Kind != b.Kind {
		return false
	}
	return a.Kind != ir.Enum || a.Name == b.Name
}

func (c *checker) ident(e *syntax.Ident, sc *scope) ir.Expr {
	if x, size, ok := sc.lookup(e.Name); ok {
		// The name's expression is copied here: as many nodes more.
		c.count(size-1, e.Pos)
		return x
	}
	switch e.Name {
	case "self":
		if !sc.acting {
			c.errorf(e.Pos, "self is the acting process: only actions and init have one")
		}
		return &ir.Self{}
	case "pred", "succ":
		if !sc.acting {
			c.errorf(e.Pos, "%s is a neighbour of the acting process: only actions and init have one (write %s(p))", e.Name, e.Name)
		}
		return &ir.Neighbor{Of: &ir.Self{}, Offset: map[string]int{"pred": -1, "succ": 1}[e.Name]}
	}
	if k, ok := c.consts[e.Name]; ok {
		if k.typ == invalidType {
			return poison{}
		}
		return &ir.Const{Value: k.value, T: k.typ}
	}
	if a, ok := c.arrays[e.Name]; ok {
		c.errorf(e.Pos, "%s is an array: index it (%s[i], or %s[p][i] for process p's)", a.Name, a.Name, a.Name)
		return &ir.Const{Value: a.Type.Lo, T: a.Type}
	}
	if v, ok := c.vars[e.Name]; ok {
		if !sc.acting {
			c.errorf(e.Pos, "%s is a process variable: say whose (%s[p])", e.Name, e.Name)
			return &ir.Const{Value: v.Type.Lo, T: v.Type}
		}
		for _, p := range sc.procs {
			if !slices.Contains(v.Procs, p) {
				c.errorf(e.Pos, "process %d has no variable %s", p, e.Name)
				break
			}
		}
		sc.recordVar(v, nil)
		return &ir.VarRef{Var: v}
	}
	if d, ok := c.defs[e.Name]; ok {
		if len(d.Params) > 0 {
			c.errorf(e.Pos, "%s takes %d arguments: write %s(...)", e.Name, len(d.Params), e.Name)
			return c.placeholder(d, sc)
		}
		return c.expand(d, nil, nil, e.Pos, sc)
	}
	if _, ok := c.messages[e.Name]; ok {
		c.errorf(e.Pos, "%s is a message type, not a value", e.Name)
	} else {
		c.errorf(e.Pos, "undefined: %s", e.Name)
	}
	return poison{}
}

// placeholder stands for a use of def d whose arguments are wrong, once
// that is reported: a constant of the type of d's body (checked silently
// with every parameter 0), so that the use is not reported besides.
func (c *checker) placeholder(d *syntax.DefDecl, sc *scope) ir.Expr {
	args := make([]ir.Expr, len(d.Params))
	for i := range args {
		args[i] = &ir.Const{T: ir.IntType()}
	}
	quiet := *sc
	quiet.access, quiet.writes = nil, nil
	c.silent++
	t := c.expand(d, args, nil, d.Pos, &quiet).Type()
	c.silent--
	if t == invalidType {
		return poison{}
	}
	return &ir.Const{Value: t.Lo, T: t}
}

// expand checks def d's body, used at pos, with its parameters bound to
// args, of sizes nodes each (nil: 1).
func (c *checker) expand(d *syntax.DefDecl, args []ir.Expr, sizes []int, pos syntax.Pos, sc *scope) ir.Expr {
	if slices.Contains(c.expanding, d.Name.Name) {
		c.errorf(pos, "%s is defined in terms of itself", d.Name.Name)
		return poison{}
	}
	params := make(map[string]int, len(d.Params))
	for i, p := range d.Params {
		params[p.Name] = 1
		if sizes != nil {
			params[p.Name] = sizes[i]
		}
	}
	defer c.enter(d.Name.Name, pos, d.Body, params)()
	inner := *sc
	inner.parent = sc
	inner.names = map[string]ir.Expr{}
	inner.sizes = params
	for i, p := range d.Params {
		inner.names[p.Name] = args[i]
	}
	return c.expr(d.Body, &inner)
}

// enter records the expansion of the def or predicate name, whose body
// is used at pos with parameters of the sizes given, and returns what
// ends it. At the outermost use, the size of the expansion is estimated
// first (inlined), so that one too large is refused at once.
func (c *checker) enter(name string, pos syntax.Pos, body syntax.Expr, params map[string]int) func() {
	c.expanding = append(c.expanding, name)
	outer := c.use == nil
	if outer {
		c.use = &defUse{name: name, pos: pos}
		if est := c.inlined(body, params, map[string]bool{name: true}); addSat(c.nodes, est) > ir.MaxNodes {
			c.count(est, pos)
		}
	}
	return func() {
		c.expanding = c.expanding[:len(c.expanding)-1]
		if outer {
			c.use = nil
		}
	}
}

func (c *checker) index(e *syntax.IndexExpr, sc *scope) ir.Expr {
	if a, ok := c.arrays[e.Var.Name]; ok {
		return c.elem(e, a, sc)
	}
	v, ok := c.vars[e.Var.Name]
	if !ok {
		c.errorf(e.Var.Pos, "%s is not a process variable", e.Var.Name)
		return poison{}
	}
	if e.Elem != nil {
		c.errorf(e.Elem.ExprPos(), "%s is not an array: %s[p] is process p's", v.Name, v.Name)
	}
	proc := c.readProc(e.Index, v.Name, e.Var.Pos, sc)
	if k, ok := proc.(*ir.Const); ok && !slices.Contains(v.Procs, k.Value) {
		c.errorf(e.Index.ExprPos(), "process %d has no variable %s", k.Value, v.Name)
	}
	sc.recordVar(v, proc)
	return &ir.VarRef{Var: v, Proc: proc}
}

// readProc checks the process whose variable name an expression reads:
// a constant is taken modulo n, the acting process is nil, and a process
// the acting ones may not read is reported where it is known.
func (c *checker) readProc(e syntax.Expr, name string, pos syntax.Pos, sc *scope) ir.Expr {
	proc := c.procExpr(e, sc)
	if k, ok := proc.(*ir.Const); ok {
		proc = &ir.Const{Value: ((k.Value % c.spec.N) + c.spec.N) % c.spec.N, T: ir.IntType()}
	}
	if sc.acting && !sc.timeout && !sc.init {
		top := model.Topology{Kind: c.spec.Topology, N: c.spec.N}
		for _, p := range sc.procs {
			if q, ok := staticProc(proc, p, c.spec.N); ok && q != p && !top.Linked(q, p) {
				c.errorf(pos, "process %d cannot read %s of process %d: in a %s a process reads only the processes linked to it (a timeout's guard reads any)", p, name, q, top.Kind)
				break
			}
		}
	}
	if _, self := proc.(*ir.Self); self {
		return nil
	}
	return proc
}

func (c *checker) call(e *syntax.CallExpr, sc *scope) ir.Expr {
	name := e.Fun.Name
	argc := func(n int) bool {
		if len(e.Args) != n {
			c.errorf(e.Fun.Pos, "%s takes %d arguments, not %d", name, n, len(e.Args))
			return false
		}
		return true
	}
	switch name {
	case "pred", "succ":
		if !argc(1) {
			return &ir.Const{T: ir.IntType()}
		}
		of := c.procExpr(e.Args[0], sc)
		off := map[string]int{"pred": -1, "succ": 1}[name]
		if k, ok := of.(*ir.Const); ok {
			return &ir.Const{Value: ir.Offset(k.Value, off, c.spec.N), T: ir.IntType()}
		}
		return &ir.Neighbor{Of: of, Offset: off}
	case "pos":
		if !argc(3) {
			return &ir.Const{T: ir.IntType()}
		}
		cp := &ir.ChanPos{Msg: c.messageArg(e.Args[0], name), From: c.procExpr(e.Args[1], sc), To: c.procExpr(e.Args[2], sc)}
		sc.recordChan(cp.From, cp.To)
		return cp
	case "len", "msgs":
		want := 2
		if name == "msgs" {
			want = 3
			if len(e.Args) == 4 {
				want = 4
			}
		}
		if !argc(want) {
			return &ir.Const{T: ir.IntType()}
		}
		if c.spec.Channels == nil {
			c.errorf(e.Fun.Pos, "%s reads a channel, and there are no channels", name)
		}
		cl := &ir.ChanLen{}
		args := e.Args
		if name == "msgs" {
			cl.Msg = c.messageArg(args[0], name)
			args = args[1:]
		}
		cl.From, cl.To = c.procExpr(args[0], sc), c.procExpr(args[1], sc)
		if len(args) == 3 {
			cl.Upto = c.intExpr(args[2], sc, "a number of messages")
		}
		if k1, ok := cl.From.(*ir.Const); ok {
			if k2, ok := cl.To.(*ir.Const); ok {
				n := c.spec.N
				from, to := ((k1.Value%n)+n)%n, ((k2.Value%n)+n)%n
				if !(model.Topology{Kind: c.spec.Topology, N: n}).Linked(from, to) {
					c.errorf(e.Fun.Pos, "there is no channel %d→%d", from, to)
				}
			}
		}
		sc.recordChan(cl.From, cl.To)
		return cl
	case "min", "max", "abs":
		n := 2
		if name == "abs" {
			n = 1
		}
		if !argc(n) {
			return &ir.Const{T: ir.IntType()}
		}
		x := c.intExpr(e.Args[0], sc, "an argument of "+name)
		if name == "abs" {
			if k, ok := x.(*ir.Const); ok && k.Value == math.MinInt {
				c.errorf(e.Fun.Pos, "%s", constantOverflow(fmt.Sprintf("abs(%d)", k.Value)))
				return poison{}
			}
			neg := &ir.Binary{Op: syntax.Lt, X: x, Y: &ir.Const{T: ir.IntType()}, T: ir.BoolType()}
			return fold(&ir.Cond{C: neg, X: fold(&ir.Unary{Op: syntax.Minus, X: x, Pos: e.Fun.Pos}), Y: x})
		}
		y := c.intExpr(e.Args[1], sc, "an argument of "+name)
		op := syntax.Lt
		if name == "max" {
			op = syntax.Gt
		}
		return fold(&ir.Cond{C: fold(&ir.Binary{Op: op, X: x, Y: y, T: ir.BoolType()}), X: x, Y: y})
	}
	if d, ok := c.defs[name]; ok {
		if !argc(len(d.Params)) {
			return c.placeholder(d, sc)
		}
		args := make([]ir.Expr, len(e.Args))
		sizes := make([]int, len(e.Args))
		for i, a := range e.Args {
			before := c.nodes
			args[i] = c.expr(a, sc)
			sizes[i] = c.nodes - before
		}
		return c.expand(d, args, sizes, e.Fun.Pos, sc)
	}
	if d, ok := c.preds[name]; ok {
		if !argc(1) {
			return &ir.Const{T: ir.BoolType()}
		}
		before := c.nodes
		arg := c.procExpr(e.Args[0], sc)
		size := c.nodes - before
		if slices.Contains(c.expanding, name) {
			c.errorf(e.Fun.Pos, "%s is defined in terms of itself", name)
			return &ir.Const{T: ir.BoolType()}
		}
		params := map[string]int{d.Param.Name: size}
		defer c.enter(name, e.Fun.Pos, d.Body, params)()
		inner := *sc
		inner.parent = sc
		inner.names = map[string]ir.Expr{d.Param.Name: arg}
		inner.sizes = params
		return c.boolExpr(d.Body, &inner, "a process predicate")
	}
	c.errorf(e.Fun.Pos, "undefined function %s", name)
	return poison{}
}

// selector checks head(p, q).field: a field of the message at the head of
// a channel.
func (c *checker) selector(e *syntax.SelectorExpr, sc *scope) ir.Expr {
	call, ok := e.X.(*syntax.CallExpr)
	head := ok && call.Fun.Name == "head" && len(call.Args) == 2
	first := ok && call.Fun.Name == "first" && len(call.Args) == 3
	if !head && !first {
		c.errorf(e.X.ExprPos(), "only a message in a channel has fields: head(p, q).%s or first(M, p, q).%s", e.Field.Name, e.Field.Name)
		return poison{}
	}
	if c.spec.Channels == nil {
		c.errorf(call.Fun.Pos, "%s reads a channel, and there are no channels", call.Fun.Name)
	}
	args := call.Args
	hf := &ir.HeadField{Field: e.Field.Name}
	if first {
		hf.First = c.messageArg(args[0], "first")
		args = args[1:]
	}
	hf.From, hf.To = c.procExpr(args[0], sc), c.procExpr(args[1], sc)
	for _, m := range c.spec.Messages {
		idx := -1
		if hf.First != nil && m != hf.First {
			hf.Index = append(hf.Index, idx)
			continue
		}
		for i, f := range m.Fields {
			if f.Name == e.Field.Name {
				idx = i
				if hf.T == nil || f.Type == invalidType {
					hf.T = f.Type
				} else if hf.T != invalidType && !sameType(hf.T, f.Type) {
					c.errorf(e.Field.Pos, "messages have fields %s of different types: head(p, q).%s would not have one type", e.Field.Name, e.Field.Name)
				}
			}
		}
		hf.Index = append(hf.Index, idx)
	}
	if hf.T == nil {
		c.errorf(e.Field.Pos, "no message has a field %s", e.Field.Name)
		hf.T = invalidType
	}
	sc.recordChan(hf.From, hf.To)
	return hf
}

// messageArg resolves the argument of fun that names a message type.
func (c *checker) messageArg(e syntax.Expr, fun string) *ir.Message {
	id, _ := e.(*syntax.Ident)
	m, known := c.messages[identName(id)]
	if !known {
		c.errorf(e.ExprPos(), "the first argument of %s is a message type", fun)
		return &ir.Message{}
	}
	return m
}

func identName(id *syntax.Ident) string {
	if id == nil {
		return ""
	}
	return id.Name
}

func (c *checker) binary(e *syntax.BinaryExpr, sc *scope) ir.Expr {
	x, y := c.expr(e.X, sc), c.expr(e.Y, sc)
	if invalid(x) || invalid(y) {
		return poison{}
	}
	tx, ty := x.Type(), y.Type()
	var t *ir.Type
	switch e.Op {
	case syntax.Plus, syntax.Minus, syntax.Star, syntax.Slash, syntax.Percent:
		if tx.Kind != ir.Int || ty.Kind != ir.Int {
			c.errorf(e.OpPos, "arithmetic needs integers, not %s and %s", typeName(tx), typeName(ty))
		}
		t = ir.IntType()
	case syntax.Lt, syntax.Le, syntax.Gt, syntax.Ge:
		if tx.Kind != ir.Int || ty.Kind != ir.Int {
			c.errorf(e.OpPos, "ordering needs integers, not %s and %s", typeName(tx), typeName(ty))
		}
		t = ir.BoolType()
	case syntax.Eq, syntax.Neq:
		if !sameType(tx, ty) {
			c.errorf(e.OpPos, "cannot compare %s with %s", typeName(tx), typeName(ty))
		}
		t = ir.BoolType()
	case syntax.AndAnd, syntax.OrOr:
		if tx.Kind != ir.Bool || ty.Kind != ir.Bool {
			c.errorf(e.OpPos, "%s needs booleans, not %s and %s", e.Op, typeName(tx), typeName(ty))
		}
		t = ir.BoolType()
	}
	if k, ok := y.(*ir.Const); ok && k.Value == 0 && (e.Op == syntax.Slash || e.Op == syntax.Percent) {
		c.errorf(e.OpPos, "division by zero")
		return &ir.Const{T: t}
	}
	if kx, ok := x.(*ir.Const); ok {
		if ky, ok := y.(*ir.Const); ok {
			if _, f := ir.EvalBinary(e.Op, kx.Value, ky.Value); f == ir.Overflow {
				c.errorf(e.OpPos, "%s", constantOverflow(ir.BinaryText(e.Op, kx.Value, ky.Value)))
				return poison{}
			}
		}
	}
	return fold(&ir.Binary{Op: e.Op, X: x, Y: y, T: t, Pos: e.OpPos})
}

// constantOverflow is the message of a constant operation op (with its
// operands' values) whose result is outside int64.
func constantOverflow(op string) string {
	return "integer overflow: the constant " + op + " is outside int64"
}

// fold evaluates an expression whose operands are constants.
func fold(e ir.Expr) ir.Expr {
	switch e := e.(type) {
	case *ir.Binary:
		kx, okx := e.X.(*ir.Const)
		ky, oky := e.Y.(*ir.Const)
		if okx && oky {
			if v, f := ir.EvalBinary(e.Op, kx.Value, ky.Value); f == ir.NoFault {
				return &ir.Const{Value: v, T: e.T}
			}
		}
		// Short-circuits with one constant side.
		if e.Op == syntax.AndAnd && ((okx && kx.Value == 0) || (oky && ky.Value == 0)) {
			return &ir.Const{Value: 0, T: ir.BoolType()}
		}
		if e.Op == syntax.OrOr && ((okx && kx.Value != 0) || (oky && ky.Value != 0)) {
			return &ir.Const{Value: 1, T: ir.BoolType()}
		}
		if e.Op == syntax.AndAnd || e.Op == syntax.OrOr {
			// true && y is y; false || y is y.
			if okx {
				return e.Y
			}
			if oky {
				return e.X
			}
		}
	case *ir.Unary:
		if k, ok := e.X.(*ir.Const); ok {
			if e.Op == syntax.Not {
				return &ir.Const{Value: 1 - k.Value, T: ir.BoolType()}
			}
			if v, ok := ir.Neg(k.Value); ok {
				return &ir.Const{Value: v, T: k.T}
			}
		}
	case *ir.Cond:
		if k, ok := e.C.(*ir.Const); ok {
			if k.Value != 0 {
				return e.X
			}
			return e.Y
		}
	}
	return e
}

// assignments records what the effects of one step assign, to refuse a
// second assignment: keys are a *ir.Var (a variable, or an array's entry
// of constant index) or an *ir.Array (an entry of an index known only when
// the step runs).
type assignments map[any]syntax.Pos

// record records an assignment at pos of key, named name, reporting one
// that may assign what an earlier one did.
func (c *checker) record(assigned assignments, key any, name string, pos syntax.Pos) {
	at, twice := assigned[key]
	if !twice {
		switch k := key.(type) {
		case *ir.Var:
			if k.Array != nil {
				at, twice = assigned[k.Array]
			}
		case *ir.Array:
			for other, p := range assigned {
				if v, ok := other.(*ir.Var); ok && v.Array == k {
					at, twice = p, true
					break
				}
			}
		}
	}
	if twice {
		c.errorf(pos, "%s is assigned twice in one step (first at %s): assignments are simultaneous", name, at)
	}
	assigned[key] = pos
}

// stmts checks effects; assigned records what is assigned on the way to
// them, to refuse a second assignment in one step.
func (c *checker) stmts(ss []syntax.Stmt, sc *scope, assigned assignments) []ir.Stmt {
	var out []ir.Stmt
	for _, s := range ss {
		out = append(out, c.stmt(s, sc, assigned)...)
	}
	return out
}

func (c *checker) stmt(s syntax.Stmt, sc *scope, assigned assignments) []ir.Stmt {
	switch s := s.(type) {
	case *syntax.SkipStmt:
		return nil
	case *syntax.AssignStmt:
		if a, ok := c.arrays[s.Var.Name]; ok {
			if st := c.assignElem(s, a, sc, assigned); st != nil {
				return []ir.Stmt{st}
			}
			return nil
		}
		v, ok := c.vars[s.Var.Name]
		if !ok {
			c.errorf(s.Var.Pos, "%s is not a process variable", s.Var.Name)
			return nil
		}
		if s.Index != nil {
			c.errorf(s.Index.ExprPos(), "a process assigns only its own variables: write %s := ..., not %s[...] := ...", v.Name, v.Name)
		}
		if len(sc.loops) > 0 {
			c.errorf(s.Pos, "for assigns %s once per member: in a for loop only an array's entry indexed by the loop's name may be assigned", v.Name)
		}
		for _, p := range sc.procs {
			if !slices.Contains(v.Procs, p) {
				c.errorf(s.Var.Pos, "process %d has no variable %s", p, v.Name)
				break
			}
		}
		c.record(assigned, v, v.Name, s.Pos)
		return []ir.Stmt{c.assign(v, s.Value, sc)}
	case *syntax.SendStmt:
		if st := c.send(s, sc); st != nil {
			return []ir.Stmt{st}
		}
		return nil
	case *syntax.IfStmt:
		cond := c.boolExpr(s.Cond, sc, "a condition")
		thenAssigned := copyAssigned(assigned)
		elseAssigned := copyAssigned(assigned)
		k, constant := cond.(*ir.Const)
		thenScope, elseScope := sc, sc
		if constant {
			// The branch not taken is checked, but its constants are not
			// held to domains a parameter may have emptied (as a ghost
			// variable's 0..0).
			dead := *sc
			dead.dead = true
			if k.Value != 0 {
				elseScope = &dead
			} else {
				thenScope = &dead
			}
		}
		then := c.stmts(s.Then, thenScope, thenAssigned)
		els := c.stmts(s.Else, elseScope, elseAssigned)
		switch {
		case constant && k.Value != 0:
			maps.Copy(assigned, thenAssigned)
			return then
		case constant:
			maps.Copy(assigned, elseAssigned)
			return els
		}
		maps.Copy(assigned, thenAssigned)
		maps.Copy(assigned, elseAssigned)
		return []ir.Stmt{&ir.If{Cond: cond, Then: then, Else: els}}
	case *syntax.RepeatStmt:
		count := c.intExpr(s.Count, sc, "a repeat count")
		if k, ok := count.(*ir.Const); ok && !sc.dead {
			switch {
			case k.Value < 0:
				c.errorf(s.Count.ExprPos(), "repeat %d times: a repeat count is not negative", k.Value)
			case k.Value > ir.MaxRepeat:
				c.errorf(s.Count.ExprPos(), "repeat %d times: a repeat runs at most %d times", k.Value, ir.MaxRepeat)
			}
		}
		inner := assignments{}
		body := c.stmts(s.Body, sc, inner)
		if len(inner) > 0 {
			c.errorf(s.Pos, "repeat may only send: it assigns %v, which one step assigns once", assignedNames(inner))
		}
		return []ir.Stmt{&ir.Repeat{Count: count, Body: body, Pos: s.Count.ExprPos()}}
	case *syntax.ForStmt:
		over := c.set(s.Over, sc)
		l := over.local(s.Var.Name)
		inner := sc.with(s.Var.Name, &ir.LocalRef{Local: l})
		inner.loops = append(slices.Clone(sc.loops), l)
		return []ir.Stmt{&ir.For{Var: l, Over: over.Set, Body: c.stmts(s.Body, inner, assigned)}}
	}
	return nil
}

// assign checks the value assigned to v.
func (c *checker) assign(v *ir.Var, value syntax.Expr, sc *scope) *ir.Assign {
	x := c.expr(value, sc)
	if invalid(x) || v.Type == invalidType {
		return &ir.Assign{Var: v, Value: x}
	}
	if !assignable(v.Type, x.Type()) {
		c.errorf(value.ExprPos(), "cannot assign %s to %s of type %s", typeName(x.Type()), v.Name, typeName(v.Type))
	}
	if k, ok := x.(*ir.Const); ok && !sc.dead && (k.Value < v.Type.Lo || k.Value > v.Type.Hi) {
		c.errorf(value.ExprPos(), "%d is outside %s's domain %s", k.Value, v.Name, v.Type.Domain())
	}
	if sc.writes != nil {
		sc.writes.Vars = append(sc.writes.Vars, ir.VarAccess{Var: v})
	}
	return &ir.Assign{Var: v, Value: x}
}

// send checks a send.
func (c *checker) send(s *syntax.SendStmt, sc *scope) ir.Stmt {
	m, ok := c.messages[s.Msg.Name]
	if !ok {
		c.errorf(s.Msg.Pos, "unknown message %s", s.Msg.Name)
		return nil
	}
	if c.spec.Channels == nil {
		c.errorf(s.Pos, "send needs channels (channels capacity C)")
	} else if len(c.spec.Channels.Carry) > 0 && !slices.Contains(c.spec.Channels.Carry, m) {
		c.errorf(s.Msg.Pos, "the channels do not carry %s", m.Name)
	}
	if len(s.Args) != len(m.Fields) {
		c.errorf(s.Pos, "message %s has %d fields, not %d", m.Name, len(m.Fields), len(s.Args))
		return nil
	}
	send := &ir.Send{Msg: m, To: c.procExpr(s.To, sc)}
	for i, a := range s.Args {
		x := c.expr(a, sc)
		f := m.Fields[i]
		if invalid(x) || f.Type == invalidType {
			send.Args = append(send.Args, x)
			continue
		}
		if !assignable(f.Type, x.Type()) {
			c.errorf(a.ExprPos(), "field %s of %s has type %s, not %s", f.Name, m.Name, typeName(f.Type), typeName(x.Type()))
		}
		if k, ok := x.(*ir.Const); ok && !sc.dead && (k.Value < f.Type.Lo || k.Value > f.Type.Hi) {
			c.errorf(a.ExprPos(), "%d is outside field %s's domain %s", k.Value, f.Name, f.Type.Domain())
		}
		send.Args = append(send.Args, x)
	}
	c.link(s.To.ExprPos(), &ir.Self{}, send.To, sc, "send to")
	if sc.writes != nil {
		sc.writes.Chans = append(sc.writes.Chans, ir.ChanAccess{From: &ir.Self{}, To: send.To})
		if !relative(send.To) {
			sc.writes.Global = true
		}
	}
	return send
}

// assignedNames lists the names of what assigned holds, sorted.
func assignedNames(assigned assignments) []string {
	names := make([]string, 0, len(assigned))
	for k := range assigned {
		switch k := k.(type) {
		case *ir.Var:
			names = append(names, k.Name)
		case *ir.Array:
			names = append(names, k.Name)
		}
	}
	sort.Strings(names)
	return names
}

func copyAssigned(m assignments) assignments {
	return maps.Clone(m)
}
