package check

import (
	"fmt"
	"math/big"
	"strings"

	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// messageFields declares d's fields in m: a scalar field as one field, an
// array field NAME[LO..HI] as the consecutive fields NAME[LO]..NAME[HI],
// its range a constant over the parameters of at least one entry.
func (c *checker) messageFields(m *ir.Message, d *syntax.MessageDecl) {
	names := map[string]bool{}
	for decl, f := range d.Fields {
		if names[f.Name.Name] {
			c.errorf(f.Name.Pos, "message %s has two fields %s", m.Name, f.Name.Name)
		}
		names[f.Name.Name] = true
		t := c.typ(f.Type)
		if f.Lo == nil {
			m.Fields = append(m.Fields, &ir.Field{Name: f.Name.Name, Type: t})
			continue
		}
		lo, okLo := c.bound(f.Lo, "an array field's index bound")
		hi, okHi := c.bound(f.Hi, "an array field's index bound")
		switch {
		case !okLo || !okHi:
			hi = lo
		case hi < lo || tooWide(lo, hi, maxArrayLen):
			c.errorf(f.Lo.ExprPos(), "array field %s of %s has %d entries: an array field has 1..%d", f.Name.Name, m.Name, hi-lo+1, maxArrayLen)
			hi = lo
		}
		a := &ir.FieldArray{Name: f.Name.Name, Lo: lo, Hi: hi, First: len(m.Fields), Decl: decl, Type: t}
		m.Arrays = append(m.Arrays, a)
		for i := lo; i <= hi; i++ {
			m.Fields = append(m.Fields, &ir.Field{Name: a.EntryName(i), Type: t})
		}
	}
}

// arraysNote describes m's array fields for a bound's error: "its array
// fields lastReqC[0..2] and lastCS[0..2] expanded".
func arraysNote(m *ir.Message) string {
	parts := make([]string, len(m.Arrays))
	for i, a := range m.Arrays {
		parts[i] = fmt.Sprintf("%s[%d..%d]", a.Name, a.Lo, a.Hi)
	}
	s := "field " + parts[0]
	if len(parts) > 1 {
		s = "fields " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
	}
	return "with its array " + s + " expanded"
}

// arrayBounds reports a message with array fields that takes, for the
// instance, more fields than a message has or more values than a message
// type has, saying how many it needs; it reports whether m is within
// both.
func (c *checker) arrayBounds(m *ir.Message, d *syntax.MessageDecl) bool {
	if len(m.Fields) > ir.MaxFields {
		c.errorf(d.Name.Pos, "message %s has %d fields %s: a message has at most %d", m.Name, len(m.Fields), arraysNote(m), ir.MaxFields)
		return false
	}
	values := big.NewInt(1)
	for _, f := range m.Fields {
		if f.Type == invalidType || f.Type.Hi-f.Type.Lo >= maxDomain {
			return false // reported already
		}
		values.Mul(values, big.NewInt(int64(f.Type.Hi-f.Type.Lo+1)))
	}
	if values.Cmp(big.NewInt(model.MaxMessageValues)) > 0 {
		c.errorf(d.Name.Pos, "message %s has %s values %s (the product of its fields' domains): a message type has at most %d", m.Name, values, arraysNote(m), model.MaxMessageValues)
		return false
	}
	return true
}

// declaredFields returns the number of m's fields as declared, an array
// field counting one, and, for each, the array it is (nil for a scalar)
// and its first field.
func declaredFields(m *ir.Message) (arrays []*ir.FieldArray, first []int) {
	for i := 0; i < len(m.Fields); {
		var a *ir.FieldArray
		for _, x := range m.Arrays {
			if x.First == i {
				a = x
			}
		}
		arrays, first = append(arrays, a), append(first, i)
		if a != nil {
			i += a.Len()
		} else {
			i++
		}
	}
	return arrays, first
}

// selectorName is how the file writes X in X.f, for an error.
func selectorName(x syntax.Expr) string {
	switch x := x.(type) {
	case *syntax.Ident:
		return x.Name
	case *syntax.CallExpr:
		return x.Fun.Name + "(...)"
	}
	return "the message"
}

// fieldArrayOf returns the array field named name the messages declare,
// reporting messages that declare it with different ranges or types, or
// as a scalar field besides; nil when none declares it.
func (c *checker) fieldArrayOf(name string, pos syntax.Pos) *ir.FieldArray {
	var found *ir.FieldArray
	for _, m := range c.spec.Messages {
		a := m.Array(name)
		if a == nil {
			for _, f := range m.Fields {
				if f.Name == name && found != nil {
					c.errorf(pos, "field %s is an array of some messages and one value of %s", name, m.Name)
					return nil
				}
			}
			continue
		}
		if found != nil && (found.Lo != a.Lo || found.Hi != a.Hi || !sameType(found.Type, a.Type)) {
			c.errorf(pos, "messages have array fields %s of different ranges or types", name)
			return nil
		}
		found = a
	}
	return found
}

// arrayFieldRead checks X.f[I], entry I of the array field f of the
// message X denotes (a run's or a quantifier's message, head(p, q) or
// first(M, p, q)): a constant I is the entry's field itself, as X.f[3]
// were a field's name; another is an ir.FieldElem over the entries.
func (c *checker) arrayFieldRead(e *syntax.SelectorExpr, sc *scope) ir.Expr {
	name := e.Field.Name
	a := c.fieldArrayOf(name, e.Field.Pos)
	if a == nil {
		if len(c.errs) == 0 || !c.hasArrayField(name) {
			c.errorf(e.Field.Pos, "no message has an array field %s: %s.%s[i] reads an entry of one", name, selectorName(e.X), name)
		}
		return poison{}
	}
	index := c.intExpr(e.Index, sc, "an array field's index")
	if invalid(index) {
		return poison{}
	}
	entry := func(i int) ir.Expr {
		return c.selector(&syntax.SelectorExpr{X: e.X, Field: &syntax.Ident{Pos: e.Field.Pos, Name: a.EntryName(i)}}, sc)
	}
	if k, ok := index.(*ir.Const); ok {
		if k.Value < a.Lo || k.Value > a.Hi {
			if !sc.dead {
				c.errorf(e.Index.ExprPos(), "%s.%s has no entry %d: its entries are %d..%d", selectorName(e.X), name, k.Value, a.Lo, a.Hi)
			}
			return &ir.Const{Value: a.Type.Lo, T: a.Type}
		}
		return entry(k.Value)
	}
	fe := &ir.FieldElem{Name: selectorName(e.X) + "." + name, Lo: a.Lo, Index: index, T: a.Type, Pos: e.Index.ExprPos()}
	for i := a.Lo; i <= a.Hi; i++ {
		x := entry(i)
		if invalid(x) {
			return x
		}
		fe.Elems = append(fe.Elems, x)
	}
	return fe
}

// hasArrayField reports whether some message declares an array field
// name.
func (c *checker) hasArrayField(name string) bool {
	for _, m := range c.spec.Messages {
		if m.Array(name) != nil {
			return true
		}
	}
	return false
}

// wholeArrayField reports X.f for an array field f read without an index,
// and reports whether it did.
func (c *checker) wholeArrayField(e *syntax.SelectorExpr) bool {
	for _, m := range c.spec.Messages {
		for _, f := range m.Fields {
			if f.Name == e.Field.Name {
				return false
			}
		}
	}
	if !c.hasArrayField(e.Field.Name) {
		return false
	}
	c.errorf(e.Field.Pos, "field %s is an array: read an entry, %s.%s[i] (a send takes it whole)", e.Field.Name, selectorName(e.X), e.Field.Name)
	return true
}

// arrayArg checks the argument of a send for the array field a of m: an
// array variable of the acting process or a local array with a's range
// (lastCS), a row of a two-dimensional one whose second range is a's
// (tokLastCS[r], or tokLastCS[p][r] of process p), or a received
// message's array field of a's range (m.lastCS); it returns one
// expression per entry.
func (c *checker) arrayArg(arg syntax.Expr, a *ir.FieldArray, m *ir.Message, sc *scope) []ir.Expr {
	var entry func(i int) syntax.Expr
	lit := func(i int) syntax.Expr { return &syntax.IntLit{Pos: arg.ExprPos(), Value: i} }
	sameRange := func(lo, hi int) bool { return lo == a.Lo && hi == a.Hi }
	switch x := arg.(type) {
	case *syntax.Ident:
		if t, ok := localArrayOf(x.Name, sc); ok {
			if t.Cols == nil && sameRange(t.Rows.Lo, t.Rows.Hi) {
				entry = func(i int) syntax.Expr { return &syntax.IndexExpr{Var: x, Index: lit(i)} }
			}
		} else if v, ok := c.arrays[x.Name]; ok && v.Cols == nil && !v.Peers && sameRange(v.Lo, v.Hi) {
			if _, _, bound := sc.lookup(x.Name); !bound {
				entry = func(i int) syntax.Expr { return &syntax.IndexExpr{Var: x, Index: lit(i)} }
			}
		}
	case *syntax.IndexExpr:
		if t, ok := localArrayOf(x.Var.Name, sc); ok {
			if t.Cols != nil && x.Elem == nil && sameRange(t.Cols.Lo, t.Cols.Hi) {
				entry = func(i int) syntax.Expr { return &syntax.IndexExpr{Var: x.Var, Index: x.Index, Elem: lit(i)} }
			}
		} else if v, ok := c.arrays[x.Var.Name]; ok && v.Cols != nil && x.Elem2 == nil && sameRange(v.Cols.Lo, v.Cols.Hi) {
			if x.Elem == nil {
				entry = func(i int) syntax.Expr { return &syntax.IndexExpr{Var: x.Var, Index: x.Index, Elem: lit(i)} }
			} else {
				entry = func(i int) syntax.Expr {
					return &syntax.IndexExpr{Var: x.Var, Index: x.Index, Elem: x.Elem, Elem2: lit(i)}
				}
			}
		}
	case *syntax.SelectorExpr:
		if f := c.fieldArrayOf(x.Field.Name, x.Field.Pos); x.Index == nil && f != nil && sameRange(f.Lo, f.Hi) {
			entry = func(i int) syntax.Expr { return &syntax.SelectorExpr{X: x.X, Field: x.Field, Index: lit(i)} }
		}
	}
	if entry == nil {
		c.errorf(arg.ExprPos(), "field %s of %s is an array %d..%d: send an array of that range (a), a row of a two-dimensional array whose second range it is (a[r]), or a received message's array field (m.%s)", a.Name, m.Name, a.Lo, a.Hi, a.Name)
		return nil
	}
	var out []ir.Expr
	for i := a.Lo; i <= a.Hi; i++ {
		x := c.expr(entry(i), sc)
		if invalid(x) {
			return nil
		}
		out = append(out, x)
	}
	return out
}
