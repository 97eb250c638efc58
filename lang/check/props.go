package check

import (
	"slices"
	"strings"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
)

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
		c.spec.Invariants = append(c.spec.Invariants, &ir.Predicate{Name: d.Name.Name, Doc: d.Doc, Body: c.boolExpr(d.Body, sc, "an invariant"), Abstraction: d.Abstraction})
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
	case "start", "init", "closure from":
		c.setPredicate(d)
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
		if cl.Found != outOfReach && (cl.Found == cl.Verdict || (cl.Found != "holds" && cl.Found != "violated")) {
			c.errorf(d.Found.Pos, "found is the other verdict than the paper's (%s here) or out-of-reach", map[bool]string{true: "violated", false: "holds"}[cl.Verdict == "holds"])
		}
	}
	if d.From != nil {
		cl.From = d.From.Name
		if cl.From != "init" && cl.From != "all" && cl.From != "start" {
			c.errorf(d.From.Pos, "a claim is from init, all or start, not %q", cl.From)
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
	c.claimStart(d, &cl)
	c.spec.Claims = append(c.spec.Claims, cl)
}

// fairnesses are the fairness assumptions a claim may name: those
// invariants.ParseFairness accepts (lang does not import the engines).
var fairnesses = []string{"none", "weak", "strong", "weak-action", "strong-action"}
