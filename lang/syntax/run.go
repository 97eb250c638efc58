package syntax

// This file parses run receives, `recv run M, ... while FIELD from Q`,
// which take a run of messages chained by a field off a channel in one
// step, and the test of a message's type, `m is M`.

// IsExpr is `X is M`: whether the message X (a run's, in a for loop over
// it) is of type M.
type IsExpr struct {
	Pos Pos
	X   Expr
	Msg *Ident
}

// ExprPos is where the expression starts.
func (e *IsExpr) ExprPos() Pos { return e.X.ExprPos() }

// startsRun reports whether the receive after recv is a run: the word
// run followed by a message type's name (run is a message's name where
// from or '(' follows it).
func (p *parser) startsRun() bool {
	if !p.isWord("run") {
		return false
	}
	next := *p.s
	next.err = func(Pos, string) {}
	next.next()
	return next.tok == IdentTok && next.lit != "from"
}

// runRecv parses run M, ... while FIELD, after recv.
func (p *parser) runRecv(r *Receive) {
	p.s.next()
	r.Run = true
	r.Types = p.identList("of a message type after recv run")
	p.expectWord("while", "after the run's message types (recv run Token, TokQ while more from pred)")
	r.More = p.ident("after while: the field that chains the run")
}

// isExpr parses is M after the operand x.
func (p *parser) isExpr(x Expr) Expr {
	pos := p.s.pos
	p.s.next()
	return &IsExpr{Pos: pos, X: x, Msg: p.ident("after is: a message type")}
}
