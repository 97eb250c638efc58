package check

import (
	"io/fs"
	"slices"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

// outOfReach is what a claim's found says of an instance whose full
// configuration space ringcheck cannot enumerate (specs.OutOfReach).
const outOfReach = "out-of-reach"

// stabilizationBound checks `bound "TEXT" [rounds EXPR]`: one per file, a text, and a
// bound in rounds of at least 1 for the instance.
func (c *checker) stabilizationBound(d *syntax.BoundDecl, first *syntax.Pos) {
	if first.IsValid() {
		c.errorf(d.Pos, "a second bound (the first is at %s)", *first)
		return
	}
	*first = d.Pos
	if d.Text == "" {
		c.errorf(d.Pos, "the bound's text is empty: it says the paper's bound as the paper gives it (bound \"4n rounds\")")
	}
	b := &ir.Bound{Text: d.Text}
	if d.Rounds != nil {
		v, ok := c.constIntOK(d.Rounds, "the bound in rounds")
		if ok && v < 1 {
			c.errorf(d.Rounds.ExprPos(), "the bound in rounds is %d for %s: it must be at least 1", v, specsValues(c.spec.Values))
		}
		b.Rounds = v
	}
	c.spec.Bound = b
}

// links checks `links reliable [enlarge NAME = EXPR, ...] [fill EXPR]`:
// one per file, in a file with channels; each parameter enlarged once, to
// a value within its range; a fill of at least 1 (by default the
// capacity of the file's channels for the instance).
func (c *checker) links(d *syntax.LinksDecl, first *syntax.Pos) {
	if first.IsValid() {
		c.errorf(d.Pos, "a second links declaration (the first is at %s)", *first)
		return
	}
	*first = d.Pos
	if d.Kind.Name != "reliable" {
		c.errorf(d.Kind.Pos, "links are reliable (links reliable ...), not %q", d.Kind.Name)
	}
	l := &ir.Links{Enlarge: map[string]int{}}
	for i, pv := range d.Enlarge {
		name := pv.Name.Name
		if slices.ContainsFunc(d.Enlarge[:i], func(q *syntax.ParamValue) bool { return q.Name.Name == name }) {
			c.errorf(pv.Name.Pos, "parameter %s is enlarged twice", name)
			continue
		}
		v, ok := c.constIntOK(pv.Value, "an enlarged parameter's value")
		j := slices.IndexFunc(c.spec.Params, func(p ir.Param) bool { return p.Name == name })
		if j < 0 {
			c.errorf(pv.Name.Pos, "spec %s has no parameter %q", c.spec.Name, name)
			continue
		}
		if p := c.spec.Params[j]; ok && (v < p.Min || v > p.Max) {
			c.errorf(pv.Value.ExprPos(), "parameter %s=%d is outside its range %d..%d", p.Name, v, p.Min, p.Max)
		}
		l.Enlarge[name] = v
	}
	if c.spec.Channels == nil {
		c.errorf(d.Pos, "links reliable is about channels, and the file declares none (channels capacity C)")
		return
	}
	l.Fill = c.spec.Channels.Capacity
	if d.Fill != nil {
		v, ok := c.constIntOK(d.Fill, "the fill")
		if ok && v < 1 {
			c.errorf(d.Fill.ExprPos(), "the fill is %d for %s: it is the most messages a channel of a random configuration holds, at least 1", v, specsValues(c.spec.Values))
		}
		l.Fill = v
	}
	c.spec.Links = l
}

// claimStart checks a claim's found out-of-reach and its start file, and
// sets them in cl: out-of-reach is for a claim about every configuration
// (from all) with no start file; a start file is a relative path at or
// below the file's folder, for a convergence claim about every
// configuration, whose outcome there (found, or the paper's verdict) is
// violated, since one configuration refutes a claim and never proves it.
func (c *checker) claimStart(d *syntax.ClaimDecl, cl *ir.Claim) {
	if cl.Found == outOfReach {
		switch {
		case d.StartFile != "":
			c.errorf(d.Found.Pos, "found out-of-reach and a start file contradict each other: the claim is decided from the start file's configuration")
		case cl.From != "all":
			c.errorf(d.Found.Pos, "found out-of-reach is for a claim about every configuration (from all), whose space ringcheck cannot enumerate")
		}
	}
	if d.StartFile == "" {
		return
	}
	cl.From, cl.StartFile, cl.StartPos = "all", d.StartFile, d.StartPos
	if !fs.ValidPath(d.StartFile) || d.StartFile == "." {
		c.errorf(d.StartPos, "a start file is a path relative to the .ring file's folder, at or below it, with '/' between names: not %q", d.StartFile)
	}
	if cl.Property != "convergence" {
		c.errorf(d.StartPos, "a claim decided from a start file is about convergence (a run from it that never reaches L refutes convergence from every configuration), not %s", cl.Property)
	}
	outcome := cl.Verdict
	if cl.Found != "" {
		outcome = cl.Found
	}
	if outcome == "holds" {
		c.errorf(d.StartPos, "one configuration refutes a claim, never proves it: a claim decided from a start file is violated there (found violated)")
	}
}
