// Package syntax reads the ring language: a hand-written scanner and
// recursive-descent parser that turn a .ring file into an abstract syntax
// tree whose every node knows its position (file, line, column). It knows
// no types and no values; package lang/check resolves names and types.
package syntax

import "fmt"

// Pos is a position in a source file: a 1-based line and column (the
// column counts bytes, as go/token does). The zero Pos is no position.
type Pos struct {
	Line, Col int
}

// IsValid reports whether p is a position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as line:col.
func (p Pos) String() string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// Token is the kind of a lexical token.
type Token int

// The tokens.
const (
	EOF Token = iota
	IdentTok
	IntTok
	StringTok

	// Operators and punctuation.
	Assign   // :=
	Arrow    // ->
	DotDot   // ..
	Colon    // :
	Comma    // ,
	Semi     // ;
	LParen   // (
	RParen   // )
	LBrack   // [
	RBrack   // ]
	LBrace   // {
	RBrace   // }
	Question // ?
	Plus     // +
	Minus    // -
	Star     // *
	Slash    // /
	Percent  // %
	Eq       // ==
	Neq      // !=
	Lt       // <
	Le       // <=
	Gt       // >
	Ge       // >=
	AndAnd   // &&
	OrOr     // ||
	Not      // !
	Define   // =
	Dot      // .
)

var tokenNames = [...]string{
	EOF: "end of file", IdentTok: "identifier", IntTok: "integer", StringTok: "string",
	Assign: "':='", Arrow: "'->'", DotDot: "'..'", Colon: "':'", Comma: "','", Semi: "';'",
	LParen: "'('", RParen: "')'", LBrack: "'['", RBrack: "']'", LBrace: "'{'", RBrace: "'}'",
	Question: "'?'", Plus: "'+'", Minus: "'-'", Star: "'*'", Slash: "'/'", Percent: "'%'",
	Eq: "'=='", Neq: "'!='", Lt: "'<'", Le: "'<='", Gt: "'>'", Ge: "'>='",
	AndAnd: "'&&'", OrOr: "'||'", Not: "'!'", Define: "'='", Dot: "'.'",
}

// String names the token as error messages do.
func (t Token) String() string {
	if int(t) < len(tokenNames) {
		return tokenNames[t]
	}
	return fmt.Sprintf("token(%d)", int(t))
}
