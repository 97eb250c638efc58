package ir

// Inspect calls f for e and, while f returns true, for each of its
// operands, depth first: the nodes an evaluation of e may read (the
// process of a variable, the bounds of a channel, the bodies of
// quantifiers).
func Inspect(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	for _, x := range operands(e) {
		Inspect(x, f)
	}
}

// operands lists the operands of e (some possibly nil).
func operands(e Expr) []Expr {
	switch e := e.(type) {
	case *Neighbor:
		return []Expr{e.Of}
	case *VarRef:
		return []Expr{e.Proc}
	case *ElemRef:
		return []Expr{e.Proc, e.Index}
	case *TempRef:
		return []Expr{e.Index}
	case *Unary:
		return []Expr{e.X}
	case *Binary:
		return []Expr{e.X, e.Y}
	case *Cond:
		return []Expr{e.C, e.X, e.Y}
	case *Quant:
		if e.Over != nil {
			return []Expr{e.Over.Of, e.Body}
		}
		return []Expr{e.Body}
	case *ChanLen:
		return []Expr{e.From, e.To, e.Upto}
	case *ChanPos:
		return []Expr{e.From, e.To}
	case *HeadField:
		return []Expr{e.From, e.To}
	case *MsgQuant:
		return []Expr{e.From, e.To, e.Body}
	case *MsgField:
		return []Expr{e.Quant.From, e.Quant.To}
	case *FieldElem:
		return append([]Expr{e.Index}, e.Elems...)
	}
	return nil
}

// Reads reports whether e reads local l.
func Reads(e Expr, l *Local) bool {
	found := false
	Inspect(e, func(x Expr) bool {
		if r, ok := x.(*LocalRef); ok && r.Local == l {
			found = true
		}
		return !found
	})
	return found
}
