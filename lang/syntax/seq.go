package syntax

// This file parses sequential blocks: `do { S; S; ... }`, whose
// statements run in order, each reading what those before it wrote, and
// their locals, `let NAME [: TYPE] := EXPR`.

// SeqStmt is `do { EFFECT; EFFECT; ... }`: effects that run in order,
// each reading what the ones before it wrote.
type SeqStmt struct {
	Pos  Pos
	Body []Stmt
}

// LetStmt is `let NAME [: TYPE] := EXPR`: a local of the enclosing
// sequential block, from there to the end of the effects it is among.
// Type nil: the type of EXPR's values. A local array, `let
// NAME[LO..HI] [[LO2..HI2]]: TYPE [:= EXPR]`, has Index (and Index2) set,
// a Type, and Value nil when every entry starts at TYPE's first value.
type LetStmt struct {
	Pos           Pos
	Name          *Ident
	Index, Index2 *Set
	Type          *Type
	Value         Expr
}

func (s *SeqStmt) stmtPos() Pos { return s.Pos }
func (s *LetStmt) stmtPos() Pos { return s.Pos }

// startsSeq reports whether the current token opens a sequential block:
// the word do followed by '{' (do is a name elsewhere).
func (p *parser) startsSeq() bool {
	return p.isWord("do") && p.peek() == LBrace
}

// startsLet reports whether the current token opens a local: the word
// let followed by a name (let is a name elsewhere: let := 1 assigns it).
func (p *parser) startsLet() bool {
	return p.isWord("let") && p.peek() == IdentTok
}

// peek returns the token after the current one.
func (p *parser) peek() Token {
	next := *p.s
	next.err = func(Pos, string) {}
	next.next()
	return next.tok
}

// seqStmt parses do { EFFECT { ; EFFECT } [;] }.
func (p *parser) seqStmt() *SeqStmt {
	s := &SeqStmt{Pos: p.s.pos}
	p.s.next()
	p.seq++
	defer func() { p.seq-- }()
	s.Body = p.seqBody("the effects of do", p.expect(LBrace, "after do"))
	return s
}

// seqBody parses the effects of a block in a sequential one, after its
// '{' at open, to its '}': EFFECT { ; EFFECT } [;].
func (p *parser) seqBody(what string, open Pos) []Stmt {
	var body []Stmt
	for !p.got(RBrace) {
		if p.s.tok == EOF {
			p.failf(p.s.pos, "%s, opened at %s, are not closed", what, open)
		}
		body = append(body, p.stmt())
		if p.s.tok != RBrace && !p.got(Semi) {
			if p.s.tok == Comma {
				p.failf(p.s.pos, "the effects of do run in order: separate them by ';', not ','")
			}
			p.failf(p.s.pos, "expected ';' or '}' after an effect in do, found %s", p.found())
		}
	}
	return body
}

// letStmt parses let NAME [: TYPE] := EXPR, or a local array, let
// NAME[LO..HI] [[LO2..HI2]]: TYPE [:= EXPR].
func (p *parser) letStmt() *LetStmt {
	s := &LetStmt{Pos: p.s.pos}
	p.s.next()
	s.Name = p.ident("after let")
	if p.got(LBrack) {
		s.Index = p.set("a local array's index range (let t[0..3]: ...)")
		p.expect(RBrack, "after the local array's index range")
		if p.got(LBrack) {
			s.Index2 = p.set("a local array's second index range (let t[0..1][0..3]: ...)")
			p.expect(RBrack, "after the local array's second index range")
		}
		p.expect(Colon, "after the local array's index range (let t[0..3]: TYPE)")
		s.Type = p.typ()
		if p.got(Assign) {
			s.Value = p.expr()
		}
		return s
	}
	if p.got(Colon) {
		s.Type = p.typ()
	}
	p.expect(Assign, "after the local's name (let t := e)")
	s.Value = p.expr()
	return s
}
