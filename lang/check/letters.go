package check

import (
	"github.com/ringcheck/ringcheck/lang/ir"
	"github.com/ringcheck/ringcheck/lang/syntax"
	"github.com/ringcheck/ringcheck/model"
)

// letters reports a message type m, declared by d, whose values (the
// product of its fields' domains) are more than a message type has, or
// which takes the message alphabet, with the types declared before it,
// past its letters: a channel holds each message as one letter, its
// index in the enumeration of every value of every message type.
func (c *checker) letters(m *ir.Message, d *syntax.MessageDecl) {
	values := 1
	for _, f := range m.Fields {
		if f.Type == invalidType || f.Type.Hi-f.Type.Lo >= maxDomain {
			// Reported already.
			return
		}
		values *= f.Type.Hi - f.Type.Lo + 1
		if values > model.MaxMessageValues {
			c.errorf(d.Name.Pos, "message %s has more than %d values (the product of its fields' domains, up to field %s): a message type has at most %d", m.Name, model.MaxMessageValues, f.Name, model.MaxMessageValues)
			return
		}
	}
	c.alphabet += values
	if c.alphabet > model.MaxAlphabet {
		c.errorf(d.Name.Pos, "message %s takes the messages' values past %d (the values of every message type, each the product of its fields' domains): the channels hold at most %d", m.Name, model.MaxAlphabet, model.MaxAlphabet)
	}
}
