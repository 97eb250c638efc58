package syntax

import (
	"fmt"
	"strconv"
	"unicode"
	"unicode/utf8"
)

// scanner splits a source into tokens. Comments run from "//" or "#" to
// the end of the line; white space separates tokens and means nothing
// else. A line ends at \n, \r\n or \r alone.
type scanner struct {
	src  []byte
	off  int // next byte to read
	line int
	col  int

	// the current token
	tok Token
	pos Pos
	lit string // an identifier's name, an integer's digits, a string's value
	err func(pos Pos, msg string)
}

func newScanner(src []byte, errf func(pos Pos, msg string)) *scanner {
	s := &scanner{src: src, line: 1, col: 1, err: errf}
	s.next()
	return s
}

func (s *scanner) peekByte(k int) byte {
	if s.off+k < len(s.src) {
		return s.src[s.off+k]
	}
	return 0
}

// advance moves past one rune, or past a line break (\n, \r\n or \r
// alone, each counted as one line).
func (s *scanner) advance() {
	if s.off >= len(s.src) {
		return
	}
	r, w := rune(s.src[s.off]), 1
	if r >= utf8.RuneSelf {
		r, w = utf8.DecodeRune(s.src[s.off:])
	}
	s.off += w
	switch {
	case r == '\r' && s.off < len(s.src) && s.src[s.off] == '\n':
		// \r\n is one line break.
		s.off++
		fallthrough
	case r == '\n' || r == '\r':
		s.line++
		s.col = 1
	default:
		s.col += w
	}
}

// isNewline reports whether c starts a line break: \n, \r\n or \r alone.
func isNewline(c byte) bool { return c == '\n' || c == '\r' }

// skipSpace skips white space and comments.
func (s *scanner) skipSpace() {
	for s.off < len(s.src) {
		c := s.src[s.off]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.advance()
		case c == '#' || (c == '/' && s.peekByte(1) == '/'):
			for s.off < len(s.src) && !isNewline(s.src[s.off]) {
				s.advance()
			}
		default:
			return
		}
	}
}

func isLetter(r rune) bool { return r == '_' || unicode.IsLetter(r) }
func isDigit(r rune) bool  { return '0' <= r && r <= '9' }

// next scans the next token into s.tok, s.pos and s.lit.
func (s *scanner) next() {
	s.skipSpace()
	s.pos = Pos{Line: s.line, Col: s.col}
	s.lit = ""
	if s.off >= len(s.src) {
		s.tok = EOF
		return
	}
	r, w := rune(s.src[s.off]), 1
	if r >= utf8.RuneSelf {
		r, w = utf8.DecodeRune(s.src[s.off:])
	}
	switch {
	case isLetter(r):
		start := s.off
		for s.off < len(s.src) {
			if r, _ := utf8.DecodeRune(s.src[s.off:]); !isLetter(r) && !isDigit(r) {
				break
			}
			s.advance()
		}
		s.tok, s.lit = IdentTok, string(s.src[start:s.off])
		return
	case isDigit(r):
		start := s.off
		for s.off < len(s.src) && isDigit(rune(s.src[s.off])) {
			s.advance()
		}
		s.tok, s.lit = IntTok, string(s.src[start:s.off])
		if s.off < len(s.src) && isLetter(rune(s.src[s.off])) {
			s.err(Pos{Line: s.line, Col: s.col}, fmt.Sprintf("unexpected %q after the number %s", s.src[s.off], s.lit))
		}
		return
	case r == '"':
		s.scanString()
		return
	}
	two := func(second byte, ifTwo, ifOne Token) {
		s.advance()
		if s.off < len(s.src) && s.src[s.off] == second {
			s.advance()
			s.tok = ifTwo
			return
		}
		s.tok = ifOne
	}
	switch r {
	case ':':
		two('=', Assign, Colon)
	case '-':
		two('>', Arrow, Minus)
	case '.':
		if s.peekByte(1) == '.' {
			s.advance()
			s.advance()
			s.tok = DotDot
			return
		}
		s.advance()
		s.tok = Dot
	case '=':
		two('=', Eq, Define)
	case '!':
		two('=', Neq, Not)
	case '<':
		two('=', Le, Lt)
	case '>':
		two('=', Ge, Gt)
	case '&':
		s.doubled('&', AndAnd, "conjunction is &&")
	case '|':
		s.doubled('|', OrOr, "disjunction is ||")
	default:
		if t, ok := singles[r]; ok {
			s.advance()
			s.tok = t
			return
		}
		pos := s.pos
		for range w {
			s.off++
		}
		s.col += w
		s.errorf(pos, "unexpected character %q", r)
		s.next()
	}
}

// doubled scans a token of two equal characters, c c, which c alone is
// not.
func (s *scanner) doubled(c byte, tok Token, hint string) {
	if s.peekByte(1) == c {
		s.advance()
		s.advance()
		s.tok = tok
		return
	}
	pos := s.pos
	s.advance()
	s.errorf(pos, "unexpected '%c' (%s)", c, hint)
}

// singles are the tokens of one character that no longer token starts.
var singles = map[rune]Token{
	',': Comma, ';': Semi, '(': LParen, ')': RParen, '[': LBrack, ']': RBrack,
	'{': LBrace, '}': RBrace, '?': Question, '+': Plus, '*': Star, '/': Slash, '%': Percent,
}

// scanString scans a double-quoted string with Go's escapes.
func (s *scanner) scanString() {
	start := s.off
	pos := s.pos
	s.advance()
	for {
		if s.off >= len(s.src) || isNewline(s.src[s.off]) {
			s.errorf(pos, "string not terminated")
			s.tok, s.lit = StringTok, ""
			return
		}
		c := s.src[s.off]
		if c == '\\' {
			s.advance()
			if s.off < len(s.src) && !isNewline(s.src[s.off]) {
				s.advance()
			}
			continue
		}
		s.advance()
		if c == '"' {
			break
		}
	}
	v, err := strconv.Unquote(string(s.src[start:s.off]))
	if err != nil {
		s.errorf(pos, "malformed string: %v", err)
	}
	s.tok, s.lit = StringTok, v
}

func (s *scanner) errorf(pos Pos, format string, args ...any) {
	s.err(pos, fmt.Sprintf(format, args...))
}
