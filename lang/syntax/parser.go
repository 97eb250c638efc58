package syntax

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
)

// Error is a problem at a position of a file: its Error is
// "file:line:col: message", the form editors and compilers use.
type Error struct {
	File string
	Pos  Pos
	Msg  string
}

// Error formats the error as file:line:col: message.
func (e *Error) Error() string {
	if !e.Pos.IsValid() {
		return e.File + ": " + e.Msg
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
}

// Parse parses the source of a .ring file; name is the path it is reported
// under. It stops at the first syntax error and returns it as an *Error.
func Parse(name string, src []byte) (f *File, err error) {
	p := &parser{file: name}
	defer func() {
		if r := recover(); r != nil {
			bail, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			f, err = nil, bail.err
		}
	}()
	p.s = newScanner(src, func(pos Pos, msg string) { p.fail(pos, msg) })
	f = &File{Name: name}
	for p.s.tok != EOF {
		f.Decls = append(f.Decls, p.decl())
	}
	return f, nil
}

// bailout carries the first error out of the recursive descent; Parse
// recovers it, so it never crosses the package's boundary.
type bailout struct{ err *Error }

type parser struct {
	file string
	s    *scanner
	// nesting is how many expressions, unary operators and effects the
	// parser is inside of (see nest).
	nesting int
	// inExpr is set while an expression is parsed: the depth of its tree
	// is checked once the outermost one is complete (see limitDepth).
	inExpr bool
	// params are the quantifiers' words declared so far as parameters'
	// names (see quantifier).
	params []string
	// seq counts the sequential blocks (do { ... }) the parser is in,
	// whose nested blocks separate their effects by ';' too.
	seq int
}

// maxNesting bounds how deeply expressions and effects nest. The parser,
// the checker and the compiler descend them recursively: the bound keeps
// them far from the end of the goroutine's stack (whose overflow is
// fatal), as go/parser's does. It bounds both the parser's recursion
// (parentheses, unary operators, conditionals, quantifiers, nested
// effects) and the depth of each expression's tree, which a chain of
// binary operators makes as deep as it is long (a + b + c is a sum of a
// sum).
const maxNesting = 1000

// nest enters one more level of the parser's recursion at pos, failing
// beyond maxNesting; unnest leaves it.
func (p *parser) nest(pos Pos) {
	p.nesting++
	if p.nesting > maxNesting {
		p.failf(pos, "expression or effects nested more than %d levels deep", maxNesting)
	}
}

func (p *parser) unnest() { p.nesting-- }

// limitDepth fails, at e's position, if e's tree is deeper than
// maxNesting (the root is at depth 1). It walks the tree with a stack of
// its own, not by recursion.
func (p *parser) limitDepth(e Expr) {
	type node struct {
		e     Expr
		depth int
	}
	stack := []node{{e, 1}}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if n.depth > maxNesting {
			p.failf(e.ExprPos(), "expression nested more than %d levels deep", maxNesting)
		}
		for _, c := range children(n.e) {
			if c != nil {
				stack = append(stack, node{c, n.depth + 1})
			}
		}
	}
}

// children lists the operands of an expression (some possibly nil).
func children(e Expr) []Expr {
	switch e := e.(type) {
	case *IndexExpr:
		return []Expr{e.Index, e.Elem, e.Elem2}
	case *CallExpr:
		return e.Args
	case *SelectorExpr:
		return []Expr{e.X, e.Index}
	case *UnaryExpr:
		return []Expr{e.X}
	case *BinaryExpr:
		return []Expr{e.X, e.Y}
	case *CondExpr:
		return []Expr{e.Cond, e.X, e.Y}
	case *QuantExpr:
		if e.Over != nil {
			return []Expr{e.Body, e.Over.Of, e.Over.Lo, e.Over.Hi, e.Over.From, e.Over.To}
		}
		return []Expr{e.Body}
	case *ParenExpr:
		return []Expr{e.X}
	case *IsExpr:
		return []Expr{e.X}
	}
	return nil
}

func (p *parser) fail(pos Pos, msg string) {
	panic(bailout{&Error{File: p.file, Pos: pos, Msg: msg}})
}

func (p *parser) failf(pos Pos, format string, args ...any) {
	p.fail(pos, fmt.Sprintf(format, args...))
}

// found describes the current token for a message.
func (p *parser) found() string {
	switch p.s.tok {
	case IdentTok:
		return strconv.Quote(p.s.lit)
	case IntTok:
		return p.s.lit
	case StringTok:
		return "a string"
	}
	return p.s.tok.String()
}

func (p *parser) expect(t Token, context string) Pos {
	pos := p.s.pos
	if p.s.tok != t {
		p.failf(pos, "expected %s %s, found %s", t, context, p.found())
	}
	p.s.next()
	return pos
}

func (p *parser) got(t Token) bool {
	if p.s.tok == t {
		p.s.next()
		return true
	}
	return false
}

// isWord reports whether the current token is the identifier w.
func (p *parser) isWord(w string) bool { return p.s.tok == IdentTok && p.s.lit == w }

func (p *parser) gotWord(w string) bool {
	if p.isWord(w) {
		p.s.next()
		return true
	}
	return false
}

func (p *parser) expectWord(w, context string) Pos {
	pos := p.s.pos
	if !p.isWord(w) {
		p.failf(pos, "expected '%s' %s, found %s", w, context, p.found())
	}
	p.s.next()
	return pos
}

// reserved are the words an identifier may not be.
var reserved = []string{
	"true", "false", "if", "then", "else", "count", "sum", "forall", "exists", "mod",
	"self", "pred", "succ", "recv", "send", "to", "from", "repeat", "skip", "in", "action",
	"for", "peers",
}

// quantifiers are the reserved words that open a quantifier (count p:
// ...); a parameter may have one as its name, as raynal's parameter
// count (see quantifier).
var quantifiers = []string{"count", "sum", "forall", "exists"}

// unbound are the names that, followed by a colon, open a declaration:
// after a parameter named by a quantifier's word, they end the
// expression rather than name the quantifier's bound variable.
var unbound = []string{"legitimate", "valid_end", "start", "init"}

// paramName parses the name of a parameter (a name, or a quantifier's
// word) in a declaration (declare) or in a list of values.
func (p *parser) paramName(context string, declare bool) *Ident {
	if p.s.tok == IdentTok && slices.Contains(quantifiers, p.s.lit) {
		id := p.word(context)
		if declare {
			p.params = append(p.params, id.Name)
		}
		return id
	}
	return p.ident(context)
}

// quantifier reports whether the current token opens a quantifier. A
// quantifier's word does, unless a parameter declared before has it as
// its name: then it opens one only when a name follows, then a colon or
// `in` (count p: ..., count q in peers: ...), that name not opening a
// declaration (legitimate: ...); otherwise it is the parameter.
func (p *parser) quantifier() bool {
	if p.s.tok != IdentTok || !slices.Contains(quantifiers, p.s.lit) {
		return false
	}
	if !slices.Contains(p.params, p.s.lit) {
		return true
	}
	next := *p.s
	next.err = func(Pos, string) {}
	next.next()
	if next.tok != IdentTok || slices.Contains(unbound, next.lit) {
		return false
	}
	next.next()
	return next.tok == Colon || next.tok == IdentTok && next.lit == "in"
}

func (p *parser) ident(context string) *Ident {
	pos := p.s.pos
	if p.s.tok != IdentTok {
		p.failf(pos, "expected a name %s, found %s", context, p.found())
	}
	name := p.s.lit
	if slices.Contains(reserved, name) {
		p.failf(pos, "%q is a reserved word, not a name", name)
	}
	p.s.next()
	return &Ident{Pos: pos, Name: name}
}

func (p *parser) optString() string {
	if p.s.tok == StringTok {
		s := p.s.lit
		p.s.next()
		return s
	}
	return ""
}

// decl parses one top-level declaration.
func (p *parser) decl() Decl {
	pos := p.s.pos
	if p.s.tok != IdentTok {
		p.failf(pos, "expected a declaration (spec, param, var, process, ...), found %s", p.found())
	}
	switch kw := p.s.lit; kw {
	case "spec":
		p.s.next()
		return &SpecDecl{Pos: pos, Name: p.specName(), Summary: p.optString()}
	case "source":
		p.s.next()
		if p.s.tok != StringTok {
			p.failf(p.s.pos, "expected a string after source, found %s", p.found())
		}
		return &SourceDecl{Pos: pos, Text: p.optString()}
	case "param":
		p.s.next()
		d := &ParamDecl{Pos: pos, Name: p.paramName("after param", true)}
		p.expect(Define, "after the parameter's name (param n = 5 in 2..8)")
		d.Default = p.expr()
		p.expectWord("in", "after the parameter's default (param n = 5 in 2..8)")
		d.Lo = p.expr()
		p.expect(DotDot, "in the parameter's range")
		d.Hi = p.expr()
		d.Doc = p.optString()
		return d
	case "const":
		p.s.next()
		d := &ConstDecl{Pos: pos, Name: p.ident("after const")}
		p.expect(Define, "after the constant's name")
		d.Value = p.expr()
		return d
	case "require":
		p.s.next()
		return &RequireDecl{Pos: pos, Cond: p.expr(), Msg: p.optString()}
	case "topology":
		p.s.next()
		d := &TopologyDecl{Pos: pos}
		if p.s.tok != IdentTok {
			p.failf(p.s.pos, "expected ring, biring, complete or line after topology, found %s", p.found())
		}
		d.Kind = &Ident{Pos: p.s.pos, Name: p.s.lit}
		p.s.next()
		p.expect(LParen, "after the topology's kind (topology ring(n))")
		d.N = p.expr()
		p.expect(RParen, "after the number of processes")
		return d
	case "type":
		p.s.next()
		d := &EnumDecl{Pos: pos, Name: p.ident("after type")}
		p.expect(Define, "after the type's name (type status = {idle, waiting})")
		p.expect(LBrace, "to open the enumeration's values")
		d.Values = p.identList("in the enumeration")
		p.expect(RBrace, "to close the enumeration's values")
		return d
	case "var":
		return p.varDecl()
	case "message":
		p.s.next()
		d := &MessageDecl{Pos: pos, Name: p.ident("after message")}
		if p.got(LParen) {
			for {
				f := &Field{Name: p.ident("of a message field")}
				if p.got(LBrack) {
					f.Lo = p.expr()
					p.expect(DotDot, "in an array field's index range (lastCS[0..N-1]: ...)")
					f.Hi = p.expr()
					p.expect(RBrack, "after the array field's index range")
				}
				p.expect(Colon, "after the field's name")
				f.Type = p.typ()
				d.Fields = append(d.Fields, f)
				if !p.got(Comma) {
					break
				}
			}
			p.expect(RParen, "after the message's fields")
		}
		return d
	case "channels":
		p.s.next()
		d := &ChannelsDecl{Pos: pos}
		p.expectWord("capacity", "after channels (channels capacity 2)")
		d.Capacity = p.expr()
		if p.gotWord("overflow") {
			d.Overflow = p.ident("after overflow (block, drop or error)")
			if p.gotWord("if") {
				// overflow block if COND else error: the policy depends on
				// the parameters.
				d.OverflowIf = p.expr()
				p.expectWord("else", "after the policy's condition (block if c else error)")
				d.OverflowElse = p.ident("after else (block, drop or error)")
			}
		}
		if p.gotWord("carry") {
			d.Carry = p.identList("after carry")
		}
		return d
	case "process":
		return p.processDecl()
	case "def":
		p.s.next()
		d := &DefDecl{Pos: pos, Name: p.ident("after def")}
		if p.got(LParen) {
			d.Params = p.identList("of a def's parameter")
			p.expect(RParen, "after the def's parameters")
		}
		p.expect(Define, "after the def's name")
		d.Body = p.expr()
		return d
	case "abstraction", "invariant", "legitimate", "valid_end", "predicate", "start", "init":
		abstraction := p.gotWord("abstraction")
		if abstraction {
			p.expectWord("invariant", "after abstraction (abstraction invariant NAME: ...)")
			kw = "invariant"
		} else {
			p.s.next()
		}
		d := &PredicateDecl{Pos: pos, Kind: kw, Abstraction: abstraction}
		if kw == "invariant" || kw == "predicate" {
			d.Name = p.ident("after " + kw)
		}
		if kw == "predicate" {
			p.expect(LParen, "after the predicate's name (predicate inCS(p): ...)")
			d.Param = p.ident("of the predicate's process")
			p.expect(RParen, "after the predicate's process")
		}
		d.Doc = p.optString()
		p.expect(Colon, "before the "+kw+"'s expression")
		d.Body = p.expr()
		return d
	case "closure":
		p.s.next()
		p.expectWord("from", "after closure (closure from \"doc\": EXPR)")
		d := &PredicateDecl{Pos: pos, Kind: "closure from", Doc: p.optString()}
		p.expect(Colon, "before the closure from predicate's expression")
		d.Body = p.expr()
		return d
	case "claim":
		return p.claimDecl()
	case "bound":
		p.s.next()
		d := &BoundDecl{Pos: pos}
		if p.s.tok != StringTok {
			p.failf(p.s.pos, "expected the bound as a string after bound (bound \"4n rounds\" rounds 4 * n), found %s", p.found())
		}
		d.Text = p.optString()
		if p.gotWord("rounds") {
			d.Rounds = p.expr()
		}
		return d
	case "links":
		return p.linksDecl()
	case "symmetry":
		p.s.next()
		return &SymmetryDecl{Pos: pos, Kinds: p.identList("after symmetry (symmetry rotation, reflection)")}
	case "check":
		p.s.next()
		d := &ChecksDecl{Pos: pos}
		for {
			d.Properties = append(d.Properties, p.property("a property"))
			if !p.got(Comma) {
				break
			}
		}
		return d
	case "environment", "timeout", "atomic", "finite", "optional", "action":
		p.failf(pos, "an action belongs in a process block (process all { action ... })")
	}
	p.failf(pos, "unknown declaration %q (spec, source, param, const, require, topology, type, var, message, channels, process, def, invariant, abstraction invariant, legitimate, valid_end, predicate, start, init, closure from, claim, check, bound, links, symmetry)", p.s.lit)
	return nil
}

// identList parses NAME {, NAME}.
func (p *parser) identList(context string) []*Ident {
	list := []*Ident{p.ident(context)}
	for p.got(Comma) {
		list = append(list, p.ident(context))
	}
	return list
}

// specName parses a spec's name: names joined by '-' with no space
// around it, as kl-naive.
func (p *parser) specName() *Ident {
	return p.hyphenated(p.ident("after spec"), "a spec's name", "kl-naive")
}

// hyphenated extends id, just read, with the names joined to it by '-'
// with no space around it (kl-naive, weak-action, leads-to); what and
// example name the word in the message of a malformed one.
func (p *parser) hyphenated(id *Ident, what, example string) *Ident {
	end := id.Pos.Col + len(id.Name)
	for p.s.tok == Minus && p.s.pos.Line == id.Pos.Line && p.s.pos.Col == end {
		p.s.next()
		if p.s.tok != IdentTok || p.s.pos.Col != end+1 {
			p.failf(p.s.pos, "%s is names joined by '-' with no space around it, as %s", what, example)
		}
		id.Name += "-" + p.s.lit
		end = p.s.pos.Col + len(p.s.lit)
		p.s.next()
	}
	return id
}

// property parses a property's name, as safety or leads-to.
func (p *parser) property(what string) *Ident {
	return p.hyphenated(p.word(what), "a property's name", "leads-to")
}

// word parses any identifier, reserved or not, as an IdentTok.
func (p *parser) word(what string) *Ident {
	if p.s.tok != IdentTok {
		p.failf(p.s.pos, "expected %s, found %s", what, p.found())
	}
	id := &Ident{Pos: p.s.pos, Name: p.s.lit}
	p.s.next()
	return id
}

func (p *parser) varDecl() *VarDecl {
	pos := p.expectWord("var", "")
	d := &VarDecl{Pos: pos, Name: p.ident("after var")}
	if p.got(LBrack) {
		d.Index = p.set("an array's index set (var used[peers]: ... or var q[0..2]: ...)")
		p.expect(RBrack, "after the array's index set")
		if p.got(LBrack) {
			d.Index2 = p.set("an array's second index set (var used[0..A-1][0..2]: ...)")
			p.expect(RBrack, "after the array's second index set")
		}
	}
	p.expect(Colon, "after the variable's name (var x: 0..K-1)")
	d.Type = p.typ()
	if p.got(Define) {
		d.Init = p.expr()
	}
	d.Doc = p.optString()
	return d
}

// typ parses bool, an enumeration's name or LO..HI.
func (p *parser) typ() *Type {
	pos := p.s.pos
	if p.s.tok == IdentTok && p.s.lit != "self" && p.s.lit != "pred" && p.s.lit != "succ" {
		// A name alone is bool or an enumeration; a name followed by an
		// operator or '..' starts a range (as n-1..n or K..2*K).
		name := p.s.lit
		save := *p.s
		p.s.next()
		if p.s.tok != DotDot && !isOperator(p.s.tok) {
			return &Type{Pos: pos, Name: &Ident{Pos: pos, Name: name}}
		}
		*p.s = save
	}
	lo := p.expr()
	p.expect(DotDot, "in a range type (lo..hi)")
	return &Type{Pos: pos, Lo: lo, Hi: p.expr()}
}

func isOperator(t Token) bool {
	switch t {
	case Plus, Minus, Star, Slash, Percent, LParen, LBrack:
		return true
	}
	return false
}

func (p *parser) processDecl() *ProcessDecl {
	pos := p.expectWord("process", "")
	d := &ProcessDecl{Pos: pos}
	if p.gotWord("all") {
		d.All = true
	} else {
		d.Lo = p.expr()
		if p.got(DotDot) {
			d.Hi = p.expr()
		}
	}
	if p.gotWord("first_enabled") {
		d.FirstEnabled = true
	}
	p.expect(LBrace, "to open the process block")
	for !p.got(RBrace) {
		switch {
		case p.s.tok == EOF:
			p.failf(p.s.pos, "the process block opened at %s is not closed", pos)
		case p.isWord("var"):
			d.Vars = append(d.Vars, p.varDecl())
		case p.isWord("const"):
			cpos := p.s.pos
			p.s.next()
			c := &ConstDecl{Pos: cpos, Name: p.ident("after const")}
			p.expect(Define, "after the fixed value's name (const up = true)")
			c.Value = p.expr()
			d.Consts = append(d.Consts, c)
		case p.isWord("init"):
			ipos := p.s.pos
			p.s.next()
			p.expect(Colon, "after init")
			d.Inits = append(d.Inits, &InitDecl{Pos: ipos, Effects: p.effects()})
		default:
			d.Actions = append(d.Actions, p.actionDecl())
		}
	}
	return d
}

func (p *parser) actionDecl() *ActionDecl {
	d := &ActionDecl{Pos: p.s.pos}
	for {
		switch {
		case p.isWord("environment"):
			d.Environment = true
		case p.isWord("timeout"):
			d.Timeout = true
		case p.isWord("atomic"):
			d.Atomic = &Ident{Pos: p.s.pos, Name: p.s.lit}
		case p.isWord("finite"), p.isWord("optional"):
			if d.Role != nil {
				p.failf(p.s.pos, "an action has one role: %s or %s", d.Role.Name, p.s.lit)
			}
			d.Role = &Ident{Pos: p.s.pos, Name: p.s.lit}
			p.s.next()
			if p.gotWord("if") {
				// finite if COND else optional: the role depends on the
				// parameters.
				d.RoleIf = p.expr()
				p.expectWord("else", "after the role's condition (finite if c else optional)")
				if !p.isWord("finite") && !p.isWord("optional") && !p.isWord("scheduled") {
					p.failf(p.s.pos, "expected finite, optional or scheduled after else, found %s", p.found())
				}
				d.RoleElse = &Ident{Pos: p.s.pos, Name: p.s.lit}
				p.s.next()
			}
			continue
		case p.isWord("action"):
			p.s.next()
			goto name
		default:
			p.failf(p.s.pos, "expected var, const, init or an action in a process block, found %s", p.found())
		}
		p.s.next()
	}
name:
	if d.Environment && d.Timeout {
		p.failf(d.Pos, "an action is an environment action or a timeout, not both")
	}
	d.Name = p.ident("after action")
	if p.got(LParen) {
		name := p.ident("of the action's choice (request(k in 1..K)) or peer (recv(j in peers))")
		p.expectWord("in", "after the choice's name (request(k in 1..K))")
		if p.gotWord("peers") {
			d.Peer = name
		} else {
			d.Choice = name
			d.ChoiceLo = p.expr()
			p.expect(DotDot, "in the choice's range")
			d.ChoiceHi = p.expr()
		}
		p.expect(RParen, "after the action's parameter")
	}
	p.expect(Colon, "after the action's name")
	if p.isWord("recv") {
		r := &Receive{Pos: p.s.pos}
		p.s.next()
		if p.startsRun() {
			p.runRecv(r)
		} else if p.gotWord("any") {
			// recv any [except M, ...] from Q: a message of any type but
			// those named, whose fields are not bound.
			r.Any = true
			if p.gotWord("except") {
				r.Except = p.identList("of a message type after except")
			}
		} else {
			r.Msg = p.ident("after recv")
			if p.got(LParen) {
				r.Fields = p.identList("for a received field")
				p.expect(RParen, "after the received fields")
			}
		}
		p.expectWord("from", "after the received message (recv token from pred)")
		r.From = p.expr()
		d.Recv = r
		if p.got(Comma) {
			d.Guard = p.expr()
		}
	} else {
		d.Guard = p.expr()
	}
	p.expect(Arrow, "after the guard (guard -> effects)")
	d.Effects = p.effects()
	return d
}

// effects parses EFFECT {, EFFECT}.
func (p *parser) effects() []Stmt {
	var out []Stmt
	for {
		out = append(out, p.stmt())
		if !p.got(Comma) {
			return out
		}
	}
}

func (p *parser) block(what string) []Stmt {
	if p.seq > 0 {
		return p.seqBody(what, p.expect(LBrace, "to open "+what))
	}
	p.expect(LBrace, "to open "+what)
	if p.got(RBrace) {
		return nil
	}
	body := p.effects()
	p.expect(RBrace, "to close "+what)
	return body
}

func (p *parser) stmt() Stmt {
	pos := p.s.pos
	p.nest(pos)
	defer p.unnest()
	switch {
	case p.isWord("skip"):
		p.s.next()
		return &SkipStmt{Pos: pos}
	case p.isWord("send"):
		p.s.next()
		s := &SendStmt{Pos: pos, Msg: p.ident("after send")}
		if p.got(LParen) {
			for {
				s.Args = append(s.Args, p.expr())
				if !p.got(Comma) {
					break
				}
			}
			p.expect(RParen, "after the message's fields")
		}
		p.expectWord("to", "after the message sent (send token to succ)")
		s.To = p.expr()
		return s
	case p.isWord("if"):
		p.s.next()
		s := &IfStmt{Pos: pos, Cond: p.expr()}
		s.Then = p.block("the effects of if")
		if p.gotWord("else") {
			if p.isWord("if") {
				s.Else = []Stmt{p.stmt()}
			} else {
				s.Else = p.block("the effects of else")
			}
		}
		return s
	case p.startsSeq():
		return p.seqStmt()
	case p.startsLet():
		return p.letStmt()
	case p.isWord("repeat"):
		p.s.next()
		s := &RepeatStmt{Pos: pos, Count: p.expr()}
		s.Body = p.block("the effects of repeat")
		return s
	case p.isWord("for"):
		p.s.next()
		s := &ForStmt{Pos: pos, Var: p.ident("after for")}
		p.expectWord("in", "after the loop's name (for q in peers { ... })")
		s.Over = p.set("the set a for loop runs over (peers or lo..hi)")
		s.Body = p.block("the effects of for")
		return s
	case p.s.tok == IdentTok:
		s := &AssignStmt{Pos: pos, Var: p.ident("assigned")}
		if p.got(LBrack) {
			s.Index = p.expr()
			p.expect(RBrack, "after the array's index")
			if p.got(LBrack) {
				s.Index2 = p.expr()
				p.expect(RBrack, "after the array's second index")
			}
		}
		p.expect(Assign, "after the assigned variable (x := e)")
		s.Value = p.expr()
		return s
	}
	p.failf(pos, "expected an effect (x := e, send, if, for, repeat, do, let or skip), found %s", p.found())
	return nil
}

// set parses peers, peers(P) or LO..HI.
func (p *parser) set(what string) *Set {
	s := &Set{Pos: p.s.pos}
	if p.gotWord("peers") {
		s.Peers = true
		if p.got(LParen) {
			s.Of = p.expr()
			p.expect(RParen, "after peers' process")
		}
		return s
	}
	if p.isWord("run") && p.peek() == LBrace {
		p.s.next()
		s.Run = true
		return s
	}
	if p.isWord("chan") {
		save := *p.s
		p.s.next()
		if p.got(LParen) {
			// chan(P, Q) or chan(M, P, Q): the messages of a channel.
			s.Chan = true
			var args []Expr
			for {
				args = append(args, p.expr())
				if !p.got(Comma) {
					break
				}
			}
			p.expect(RParen, "after the channel's processes (chan(p, q) or chan(M, p, q))")
			switch len(args) {
			case 2:
				s.From, s.To = args[0], args[1]
			case 3:
				id, ok := args[0].(*Ident)
				if !ok {
					p.failf(args[0].ExprPos(), "the first of three arguments of chan is a message type (chan(M, p, q))")
				}
				s.Msg, s.From, s.To = id, args[1], args[2]
			default:
				p.failf(s.Pos, "chan takes the channel's processes, and optionally a message type first: chan(p, q) or chan(M, p, q)")
			}
			return s
		}
		*p.s = save
	}
	if p.s.tok == EOF || p.s.tok == LBrace || p.s.tok == RBrack || p.s.tok == Colon {
		p.failf(p.s.pos, "expected %s, found %s", what, p.found())
	}
	s.Lo = p.expr()
	p.expect(DotDot, "in "+what)
	s.Hi = p.expr()
	return s
}

func (p *parser) claimDecl() *ClaimDecl {
	pos := p.expectWord("claim", "")
	d := &ClaimDecl{Pos: pos, Property: p.property("a property after claim")}
	d.Verdict = p.word("a verdict (holds or violated) after the property")
	if p.gotWord("found") {
		d.Found = p.hyphenated(p.word("what ringcheck finds (holds, violated or out-of-reach) after found"), "what ringcheck finds", "out-of-reach")
	}
	if p.gotWord("from") {
		if p.s.tok == StringTok {
			d.StartPos, d.StartFile = p.s.pos, p.s.lit
			p.s.next()
		} else {
			d.From = p.word("init, all, start or a start file (\"FILE.json\") after from")
		}
	}
	if p.gotWord("fairness") {
		d.Fairness = p.hyphenated(p.word("none, weak, strong, weak-action or strong-action after fairness"), "a fairness", "weak-action")
	}
	if p.gotWord("with") {
		for {
			pv := &ParamValue{Name: p.paramName("of a parameter", false)}
			p.expect(Define, "after the parameter's name")
			pv.Value = p.expr()
			d.Params = append(d.Params, pv)
			if !p.got(Comma) {
				break
			}
		}
	}
	d.Source = p.optString()
	return d
}

// linksDecl parses `links reliable [enlarge NAME = EXPR, ...] [fill
// EXPR]`.
func (p *parser) linksDecl() *LinksDecl {
	pos := p.expectWord("links", "")
	d := &LinksDecl{Pos: pos, Kind: p.word("the kind of links after links (links reliable)")}
	if p.gotWord("enlarge") {
		for {
			pv := &ParamValue{Name: p.paramName("of a parameter after enlarge (enlarge Cmax = 32)", false)}
			p.expect(Define, "after the parameter's name (enlarge Cmax = 32)")
			pv.Value = p.expr()
			d.Enlarge = append(d.Enlarge, pv)
			if !p.got(Comma) {
				break
			}
		}
	}
	if p.gotWord("fill") {
		d.Fill = p.expr()
	}
	return d
}

// Expressions, by increasing precedence: if-then-else and the
// quantifiers (whose bodies extend as far as possible), ||, &&, !,
// comparisons, + -, * / % mod, unary minus.

func (p *parser) expr() Expr {
	if !p.inExpr {
		p.inExpr = true
		x := p.expr()
		p.inExpr = false
		p.limitDepth(x)
		return x
	}
	pos := p.s.pos
	p.nest(pos)
	defer p.unnest()
	switch {
	case p.isWord("if"):
		p.s.next()
		c := &CondExpr{Pos: pos, Cond: p.expr()}
		p.expectWord("then", "after the condition (if c then a else b)")
		c.X = p.expr()
		p.expectWord("else", "in a conditional expression (if c then a else b)")
		c.Y = p.expr()
		return c
	case p.quantifier():
		q := &QuantExpr{Pos: pos, Kind: p.s.lit}
		p.s.next()
		q.Var = p.ident("bound by " + q.Kind)
		if p.gotWord("in") {
			q.Over = p.set("the set " + q.Kind + " ranges over (peers, peers(p) or lo..hi)")
		}
		p.expect(Colon, "after the bound process ("+q.Kind+" p: ...)")
		q.Body = p.expr()
		return q
	}
	return p.or()
}

func (p *parser) or() Expr {
	x := p.and()
	for p.s.tok == OrOr {
		pos := p.s.pos
		p.s.next()
		x = &BinaryExpr{OpPos: pos, Op: OrOr, X: x, Y: p.operand(p.and)}
	}
	return x
}

func (p *parser) and() Expr {
	x := p.not()
	for p.s.tok == AndAnd {
		pos := p.s.pos
		p.s.next()
		x = &BinaryExpr{OpPos: pos, Op: AndAnd, X: x, Y: p.operand(p.not)}
	}
	return x
}

// operand parses the right operand of a binary operator with next, or, if
// it starts with a word that opens an expression of lower precedence
// (if, a quantifier), that whole expression.
func (p *parser) operand(next func() Expr) Expr {
	if p.isWord("if") || p.quantifier() {
		return p.expr()
	}
	return next()
}

func (p *parser) not() Expr {
	if p.s.tok == Not {
		pos := p.s.pos
		p.nest(pos)
		defer p.unnest()
		p.s.next()
		return &UnaryExpr{Pos: pos, Op: Not, X: p.operand(p.not)}
	}
	return p.cmp()
}

func (p *parser) cmp() Expr {
	x := p.add()
	if p.isWord("is") {
		return p.isExpr(x)
	}
	switch t := p.s.tok; t {
	case Eq, Neq, Lt, Le, Gt, Ge:
		pos := p.s.pos
		p.s.next()
		x = &BinaryExpr{OpPos: pos, Op: t, X: x, Y: p.operand(p.add)}
		switch p.s.tok {
		case Eq, Neq, Lt, Le, Gt, Ge:
			p.failf(p.s.pos, "comparisons do not chain: write a < b && b < c")
		}
	}
	return x
}

func (p *parser) add() Expr {
	x := p.mul()
	for p.s.tok == Plus || p.s.tok == Minus {
		t, pos := p.s.tok, p.s.pos
		p.s.next()
		x = &BinaryExpr{OpPos: pos, Op: t, X: x, Y: p.operand(p.mul)}
	}
	return x
}

func (p *parser) mul() Expr {
	x := p.unary()
	for {
		t, pos := p.s.tok, p.s.pos
		switch {
		case t == Star || t == Slash || t == Percent:
		case p.isWord("mod"):
			t = Percent
		default:
			return x
		}
		p.s.next()
		x = &BinaryExpr{OpPos: pos, Op: t, X: x, Y: p.operand(p.unary)}
	}
}

func (p *parser) unary() Expr {
	if p.s.tok == Minus {
		pos := p.s.pos
		p.nest(pos)
		defer p.unnest()
		p.s.next()
		return &UnaryExpr{Pos: pos, Op: Minus, X: p.operand(p.unary)}
	}
	if p.s.tok == Not {
		return p.not()
	}
	return p.primary()
}

func (p *parser) primary() Expr {
	pos := p.s.pos
	switch p.s.tok {
	case IntTok:
		v, err := strconv.Atoi(p.s.lit)
		if err != nil || v > 1<<31-1 {
			p.failf(pos, "integer %s is too large", p.s.lit)
		}
		p.s.next()
		return &IntLit{Pos: pos, Value: v}
	case LParen:
		p.s.next()
		x := p.expr()
		p.expect(RParen, "to close the parenthesis")
		return &ParenExpr{Pos: pos, X: x}
	case IdentTok:
		switch p.s.lit {
		case "true", "false":
			v := p.s.lit == "true"
			p.s.next()
			return &BoolLit{Pos: pos, Value: v}
		case "if":
			return p.expr()
		}
		if p.quantifier() {
			return p.expr()
		}
		if slices.Contains(reserved, p.s.lit) && !slices.Contains(quantifiers, p.s.lit) && p.s.lit != "self" && p.s.lit != "pred" && p.s.lit != "succ" {
			p.failf(pos, "unexpected %q in an expression", p.s.lit)
		}
		id := &Ident{Pos: pos, Name: p.s.lit}
		p.s.next()
		switch p.s.tok {
		case LBrack:
			p.s.next()
			x := &IndexExpr{Var: id, Index: p.expr()}
			p.expect(RBrack, "to close the index")
			if p.got(LBrack) {
				x.Elem = p.expr()
				p.expect(RBrack, "to close the array's index")
				if p.got(LBrack) {
					x.Elem2 = p.expr()
					p.expect(RBrack, "to close the array's second index")
				}
			}
			return x
		case LParen:
			p.s.next()
			c := &CallExpr{Fun: id}
			if !p.got(RParen) {
				for {
					c.Args = append(c.Args, p.expr())
					if !p.got(Comma) {
						break
					}
				}
				p.expect(RParen, "after the arguments")
			}
			if p.got(Dot) {
				return p.selector(c)
			}
			return c
		case Dot:
			// m.f: a field of a message a quantifier over a channel binds.
			p.s.next()
			return p.selector(id)
		}
		return id
	}
	p.failf(pos, "expected an expression, found %s", p.found())
	return nil
}

// selector parses what follows X. : a field's name, and an index if the
// field is an array's entry (m.lastCS[i]).
func (p *parser) selector(x Expr) *SelectorExpr {
	e := &SelectorExpr{X: x, Field: p.ident("after '.'")}
	if p.got(LBrack) {
		e.Index = p.expr()
		p.expect(RBrack, "to close the array field's index")
	}
	return e
}

// AsError returns err as an *Error if it is one.
func AsError(err error) (*Error, bool) {
	var e *Error
	ok := errors.As(err, &e)
	return e, ok
}
