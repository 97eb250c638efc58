package check

import (
	"math"
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

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
				n := len(c.errs)
				c.errorf(d.Pos, "requirement fails for %s: %s", specsValues(c.spec.Values), msg)
				if len(c.errs) > n {
					c.errs[n] = &RequirementError{Err: c.errs[n].(*syntax.Error), Reason: msg}
				}
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
			for _, k := range d.Consts {
				c.fixedValue(k, procs)
			}
		}
	}
	for _, d := range decls {
		if d, ok := d.(*syntax.ChannelsDecl); ok {
			c.channels(d)
		}
	}
	var boundAt, linksAt syntax.Pos
	for _, d := range decls {
		switch d := d.(type) {
		case *syntax.BoundDecl:
			c.stabilizationBound(d, &boundAt)
		case *syntax.LinksDecl:
			c.links(d, &linksAt)
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
	c.setRules()
	if c.spec.Channels == nil {
		for _, m := range c.spec.Messages {
			c.errorf(m.Pos, "message %s is declared but there are no channels (channels capacity C)", m.Name)
		}
	}
	c.symmetry(decls)
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
	_, g := c.groups[name]
	return a || b || v || m || d || r || p || g
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
	case "line":
		c.spec.Topology = model.Line
	default:
		c.errorf(d.Kind.Pos, "unknown topology %q (ring, biring, complete or line)", d.Kind.Name)
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
	if lo > hi {
		// An empty range: a block of no process.
		return []int{}
	}
	if lo < 0 || hi >= c.spec.N {
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
	if c.taken(d.Name.Name) && procs != nil && c.declarePart(d, procs) {
		return
	}
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
	c.messageFields(m, d)
	switch {
	case len(d.Fields) > ir.MaxFields:
	case len(m.Arrays) > 0:
		if c.arrayBounds(m, d) {
			c.letters(m, d)
		}
	default:
		c.letters(m, d)
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
		policy := d.Overflow
		if d.OverflowIf != nil {
			x := c.expr(d.OverflowIf, &scope{global: true})
			k, ok := x.(*ir.Const)
			switch {
			case invalid(x):
			case !ok || k.T.Kind != ir.Bool:
				c.errorf(d.OverflowIf.ExprPos(), "an overflow policy's condition is a boolean constant over the parameters (block if requests > 0 else error)")
			case k.Value == 0:
				policy = d.OverflowElse
			}
		}
		// Both policies are checked, the one taken kept.
		for _, id := range []*syntax.Ident{d.Overflow, d.OverflowElse} {
			if id == nil {
				continue
			}
			o, err := model.ParseOverflow(id.Name)
			if err != nil {
				c.errorf(id.Pos, "%v", err)
			}
			if id == policy {
				ch.Overflow = o
			}
		}
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
